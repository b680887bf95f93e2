/**
 * `ls [-R] [-s] [-w] PATH`: the children of a node, or with -R every descendant as a full path. A descendant
 * this session may not read is reported (stderr; with --json also as `{"path","error"}` in the listing) and
 * the walk goes on; the exit status is then PARTIAL (8). -s and -w are zkCli's: the node's stat after the
 * children, and a one-shot child watch.
 */
import { joinPath } from '@zkts/protocol';
import type { WatchOptions } from '@zkts/protocol';

import { flag } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { WATCH_OPTION, followWatch } from '../one-shot-watch.js';
import { formatStat, statRecord } from '../output.js';
import { childrenOf, partialError, reportUnreadable } from '../partial.js';
import type { NodeError } from '../partial.js';

export interface WalkEntry {
  readonly path: string;
  /** Set when the node's children could not be read. */
  readonly error?: NodeError;
}

/** Depth-first, children sorted, the node itself first. */
export async function* walk(path: string, context: CommandContext, isRoot = true): AsyncGenerator<WalkEntry> {
  const outcome = await childrenOf(path, isRoot, context);
  if ('error' in outcome) {
    yield { path, error: outcome.error };
    return;
  }
  yield { path };
  for (const child of outcome.children) yield* walk(joinPath(path, child), context, false);
}

export const ls: Command = {
  name: 'ls',
  summary: 'list the children of a node',
  usage: '[-R] [-s] [-w] [PATH]',
  details:
    'PATH defaults to /. With -R, print the node and every descendant as a full path, depth first.\n' +
    'A descendant whose children this session may not read (NO_AUTH) is still listed, reported on stderr\n' +
    '(with --json also as {"path","error":{"code","message"}} in the listing), and the walk goes on;\n' +
    'the exit status is then 8 (partial).\n' +
    "-s prints the node's stat after the children (JSON: a \"stat\" field). -w leaves a watch on the children\n" +
    'and prints its event (childrenChanged, deleted): the command waits for it, except in the shell, where it is\n' +
    'printed when it comes. For every change under a subtree, use `watch PATH --recursive`.',
  options: {
    recursive: { type: 'boolean', short: 'R', description: 'list every descendant' },
    stat: { type: 'boolean', short: 's', description: "also print the node's stat (zkCli -s)" },
    watch: WATCH_OPTION,
  },
  optionHints: { '-r': 'did you mean -R (every descendant)?' },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = context.args.positionals[0] ?? '/';
    const withStat = flag(context.args, 'stat');
    const watch = flag(context.args, 'watch');
    const recursive = flag(context.args, 'recursive');
    if (recursive && withStat) throw new UsageError('-s cannot be combined with -R (stat PATH prints one node\'s stat)');
    if (recursive && watch) throw new UsageError('-w cannot be combined with -R: `watch PATH --recursive` reports every change under PATH');
    const client = await context.session.client();
    if (recursive) {
      let unreadable = 0;
      for await (const entry of walk(path, context)) {
        context.out.emit(entry, entry.path);
        if (entry.error === undefined) continue;
        unreadable++;
        reportUnreadable(context, 'ls', entry.path, entry.error);
      }
      if (unreadable > 0) throw partialError(unreadable, 'listing');
      return ExitCode.OK;
    }
    const call = context.session.call(context.signal);
    const options: WatchOptions = watch ? { ...call, watch: true } : call;
    const result = await client.getChildren(path, options);
    const sorted = [...result.children].sort();
    if (context.out.json) context.out.record({ path, children: sorted, ...(withStat ? { stat: statRecord(result.stat) } : {}) });
    else for (const child of sorted) context.out.line(child);
    if (withStat) context.out.line(formatStat(result.stat));
    return result.watch === undefined ? ExitCode.OK : followWatch(context, result.watch, `child watch on ${path}`);
  },
};
