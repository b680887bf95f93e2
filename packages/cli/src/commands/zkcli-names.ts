/**
 * zkCli.sh's command names for zkts commands: `delete` is `rm`, `getAcl` is `acl get`, and so on, with
 * zkCli's arguments and flags meaning what they mean there. Each one runs the zkts command it names, so the
 * checks, output and exit codes are that command's; help lists them apart (Command.aliasOf).
 *
 * zkCli's quota commands (listquota, setquota, delquota) live beside `zkts quota` in quota.ts.
 */
import type { OptionHints, OptionSpecs, ParsedArgs } from '../args.js';
import { flag, parseInteger, stringOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { GLOBAL_OPTIONS } from '../global-options.js';
import { formatStat } from '../output.js';
import { partialError, reportUnreadable } from '../partial.js';
import { acl } from './acl.js';
import { auth } from './auth.js';
import { count } from './count.js';
import { ephemerals } from './ephemerals.js';
import { walk } from './ls.js';
import { rm } from './rm.js';
import { unwatch } from './unwatch.js';

/** Runs `target` in the alias's context with these arguments: the global options as given, plus `values`. */
export function runAs(context: CommandContext, target: Command, positionals: readonly string[], values: ParsedArgs['values'] = {}): Promise<number> {
  const global = Object.fromEntries(Object.entries(context.args.values).filter(([name]) => name in GLOBAL_OPTIONS));
  return target.run({ ...context, args: { values: { ...global, ...values }, positionals, rest: context.args.rest } });
}

export interface AliasSpec {
  readonly name: string;
  /** The zkts command line it stands for, as help shows it (`rm -r`). */
  readonly as: string;
  readonly usage: string;
  readonly details?: string;
  readonly options?: OptionSpecs;
  readonly optionHints?: OptionHints;
  run(context: CommandContext): Promise<number>;
}

export function zkCliAlias(spec: AliasSpec): Command {
  return {
    name: spec.name,
    summary: `same as \`${spec.as}\``,
    usage: spec.usage,
    details: `zkCli's ${spec.name}, run as \`zkts ${spec.as}\`${spec.details === undefined ? '.' : `: ${spec.details}`}`,
    options: spec.options ?? {},
    ...(spec.optionHints === undefined ? {} : { optionHints: spec.optionHints }),
    aliasOf: spec.as,
    run: spec.run,
  };
}

const VERSION = { type: 'string', short: 'v', arg: 'VERSION', description: 'expected version (-1: any)' } as const;

/** The value options an alias passes on under the same name. */
function same(args: ParsedArgs, ...names: string[]): ParsedArgs['values'] {
  return Object.fromEntries(names.filter((n) => args.values[n] !== undefined).map((n) => [n, args.values[n]]));
}

const deleteAll = (name: string): Command =>
  zkCliAlias({
    name,
    as: 'rm -r',
    usage: 'PATH [-b BATCH]',
    details: 'the node and everything under it. -b (the batch size of its deletes) is accepted and has no effect: zkts deletes one node at a time',
    options: { batch: { type: 'string', short: 'b', arg: 'BATCH', description: 'accepted for zkCli; no effect' } },
    run(context) {
      const batch = stringOption(context.args, 'batch');
      if (batch !== undefined) parseInteger(batch, '-b', 1);
      return runAs(context, rm, context.args.positionals, { recursive: true });
    },
  });

export const ZKCLI_NAMES: readonly Command[] = [
  zkCliAlias({
    name: 'delete',
    as: 'rm',
    usage: '[-v VERSION] PATH',
    details: 'a node without children; with -v only at that version',
    options: { version: VERSION },
    optionHints: { '-r': 'delete removes one node; deleteall PATH (rm -r PATH) removes a subtree' },
    run: (context) => runAs(context, rm, context.args.positionals, same(context.args, 'version')),
  }),
  deleteAll('deleteall'),
  deleteAll('rmr'),
  zkCliAlias({
    name: 'getAcl',
    as: 'acl get',
    usage: '[-s] PATH',
    details: "-s also prints the node's stat",
    options: { stat: { type: 'boolean', short: 's', description: "also print the node's stat" } },
    async run(context) {
      atMost(context, 1);
      const path = positional(context, 0, 'PATH');
      const code = await runAs(context, acl, ['get', path]);
      // The JSON record of `acl get` has the stat already.
      if (flag(context.args, 'stat') && !context.out.json) await printStat(context, path);
      return code;
    },
  }),
  zkCliAlias({
    name: 'setAcl',
    as: 'acl set',
    usage: '[-s] [-v VERSION] [-R] PATH ACL',
    details: "-s then prints the node's stat; -R sets the ACL on every node of the subtree (a node whose children this session may not list is reported and the rest goes on, exit 8)",
    options: {
      stat: { type: 'boolean', short: 's', description: "then print the node's stat" },
      version: { ...VERSION, description: 'expected ACL version (aversion)' },
      recursive: { type: 'boolean', short: 'R', description: 'every node of the subtree' },
    },
    async run(context) {
      atMost(context, 2);
      const path = positional(context, 0, 'PATH');
      const spec = positional(context, 1, 'ACL');
      if (!flag(context.args, 'recursive')) {
        const code = await runAs(context, acl, ['set', path, spec], same(context.args, 'version'));
        if (flag(context.args, 'stat') && !context.out.json) await printStat(context, path);
        return code;
      }
      if (stringOption(context.args, 'version') !== undefined) throw new UsageError('-v cannot be combined with -R');
      let unreadable = 0;
      for await (const entry of walk(path, context)) {
        await runAs(context, acl, ['set', entry.path, spec]);
        if (entry.error === undefined) continue;
        unreadable++;
        reportUnreadable(context, 'setAcl', entry.path, entry.error);
      }
      if (unreadable > 0) throw partialError(unreadable, 'setAcl -R');
      return ExitCode.OK;
    },
  }),
  zkCliAlias({
    name: 'addauth',
    as: 'auth',
    usage: 'SCHEME CREDENTIALS',
    details: 'addauth digest user:pass is auth digest:user:pass',
    run(context) {
      atMost(context, 2);
      const scheme = positional(context, 0, 'SCHEME');
      const credentials = context.args.positionals[1];
      return runAs(context, auth, [credentials === undefined ? scheme : `${scheme}:${credentials}`]);
    },
  }),
  zkCliAlias({
    name: 'getEphemerals',
    as: 'ephemerals',
    usage: '[PATH]',
    run: (context) => runAs(context, ephemerals, context.args.positionals),
  }),
  zkCliAlias({
    name: 'getAllChildrenNumber',
    as: 'count',
    usage: 'PATH',
    run: (context) => runAs(context, count, context.args.positionals),
  }),
  zkCliAlias({
    name: 'removewatches',
    as: 'unwatch',
    usage: 'PATH [-c|-d|-a] [-l]',
    options: unwatch.options,
    run: (context) => runAs(context, unwatch, context.args.positionals, same(context.args, ...Object.keys(unwatch.options))),
  }),
];

async function printStat(context: CommandContext, path: string): Promise<void> {
  const client = await context.session.client();
  const { stat } = await client.getACL(path, context.session.call(context.signal));
  context.out.line(formatStat(stat));
}
