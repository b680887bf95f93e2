/**
 * `quota set|get|list|rm`: ZooKeeper's quotas through @zkts/recipes' quota family, on the nodes zkCli uses, and
 * zkCli's own names for the same commands (`setquota`, `listquota`, `delquota`) with zkCli's flags. `get` prints
 * zkCli's listquota lines ("Output quota for PATH count=…,bytes=…", "Output stat for PATH …").
 */
import { TimeoutError } from '@zkts/protocol';
import {
  deleteQuota, getQuota, listQuotas, QuotaFormatError, RecipeArgumentError, setQuota,
  type DeleteQuotaOptions, type Quota, type QuotaLimits,
} from '@zkts/recipes';

import { flag, parseInteger, stringOption, type OptionSpecs } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { CliError, ExitCode, UsageError } from '../exit-codes.js';

const LIMITS = ['count', 'bytes', 'hard-count', 'hard-bytes'] as const;
type LimitName = (typeof LIMITS)[number];
const FIELD: Record<LimitName, keyof QuotaLimits> = { count: 'count', bytes: 'bytes', 'hard-count': 'countHardLimit', 'hard-bytes': 'bytesHardLimit' };

const SET_OPTIONS: OptionSpecs = {
  count: { type: 'string', short: 'n', arg: 'COUNT', description: 'soft limit on the number of nodes (the node included)' },
  bytes: { type: 'string', short: 'b', arg: 'BYTES', description: 'soft limit on the data bytes of the subtree' },
  'hard-count': { type: 'string', short: 'N', arg: 'COUNT', description: 'hard limit on the number of nodes' },
  'hard-bytes': { type: 'string', short: 'B', arg: 'BYTES', description: 'hard limit on the data bytes' },
};
const RM_OPTIONS: OptionSpecs = {
  count: { type: 'boolean', short: 'n', description: 'unset the soft count limit only' },
  bytes: { type: 'boolean', short: 'b', description: 'unset the soft bytes limit only' },
  'hard-count': { type: 'boolean', short: 'N', description: 'unset the hard count limit only' },
  'hard-bytes': { type: 'boolean', short: 'B', description: 'unset the hard bytes limit only' },
};

/** --timeout as a signal for the whole quota operation (several calls), its expiry a TimeoutError (exit 75). */
function operationSignal(context: CommandContext): AbortSignal {
  const timeout = context.global.timeout;
  if (timeout === undefined) return context.signal;
  const timer = new AbortController();
  setTimeout(() => timer.abort(new TimeoutError(`no answer within ${timeout} ms`)), timeout).unref();
  return AbortSignal.any([context.signal, timer.signal]);
}

/** The recipes' refusals in the CLI's terms: a bad argument is a usage error, an unreadable quota bad data. */
async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof RecipeArgumentError) throw new UsageError(e.message.replace(/^\w+: /, ''));
    if (e instanceof QuotaFormatError) throw new CliError(ExitCode.DATA_ERROR, `${e.message} [${e.code}]`, { cause: e });
    throw e;
  }
}

/** StatsTrack's text, every key written (as zkCli 3.8 and zkts write a limits node): what zkCli's listquota prints. */
function limitsText(limits: Readonly<QuotaLimits>): string {
  const v = (n: number | undefined): number => n ?? -1;
  return `count=${v(limits.count)},bytes=${v(limits.bytes)}=;byteHardLimit=${v(limits.bytesHardLimit)};countHardLimit=${v(limits.countHardLimit)}`;
}

function quotaLines(quota: Quota): string {
  const stats = quota.stats === undefined ? '(no stats node)' : `count=${quota.stats.count},bytes=${quota.stats.bytes}`;
  return `Output quota for ${quota.path} ${limitsText(quota.limits)}\nOutput stat for ${quota.path} ${stats}`;
}

function quotaRecord(quota: Quota): Record<string, unknown> {
  return { path: quota.path, limits: quota.limits, stats: quota.stats ?? null };
}

function noQuota(path: string): CliError {
  return new CliError(ExitCode.NO_NODE, `quota for ${path} does not exist`);
}

async function runSet(context: CommandContext, path: string): Promise<number> {
  const limits: QuotaLimits = {};
  for (const name of LIMITS) {
    const raw = stringOption(context.args, name);
    if (raw !== undefined) limits[FIELD[name]] = parseInteger(raw, `-${SET_OPTIONS[name]?.short} (--${name})`, name.endsWith('count') ? 1 : 0);
  }
  if (Object.keys(limits).length === 0) throw new UsageError('give at least one of -n, -b, -N, -B');
  const client = await context.session.client();
  const quota = await translated(() => setQuota(client, path, { ...limits, signal: operationSignal(context) }));
  // zkCli warns the same way: a limit below what is used already is legal, and passed at once.
  const stats = quota.stats;
  if (stats !== undefined) {
    const count = Math.min(quota.limits.count ?? Infinity, quota.limits.countHardLimit ?? Infinity);
    const bytes = Math.min(quota.limits.bytes ?? Infinity, quota.limits.bytesHardLimit ?? Infinity);
    if (count < stats.count) context.out.note(`warning: the count limit ${count} is below the ${stats.count} nodes ${path} has now`);
    if (bytes < stats.bytes) context.out.note(`warning: the bytes limit ${bytes} is below the ${stats.bytes} bytes ${path} has now`);
  }
  context.out.record(quotaRecord(quota));
  return ExitCode.OK;
}

async function runGet(context: CommandContext, path: string): Promise<number> {
  const client = await context.session.client();
  const quota = await translated(() => getQuota(client, path, { signal: operationSignal(context) }));
  if (quota === undefined) throw noQuota(path);
  context.out.emit(quotaRecord(quota), () => quotaLines(quota));
  return ExitCode.OK;
}

async function runList(context: CommandContext): Promise<number> {
  const client = await context.session.client();
  const quotas = await translated(() => listQuotas(client, { signal: operationSignal(context) }));
  for (const quota of quotas) context.out.emit(quotaRecord(quota), () => quotaLines(quota));
  return ExitCode.OK;
}

async function runRm(context: CommandContext, path: string): Promise<number> {
  const which: DeleteQuotaOptions = {};
  for (const name of LIMITS) if (flag(context.args, name)) which[FIELD[name]] = true;
  const client = await context.session.client();
  const removed = await translated(() => deleteQuota(client, path, { ...which, signal: operationSignal(context) }));
  if (!removed) throw noQuota(path);
  const unset = LIMITS.filter((name) => flag(context.args, name));
  context.out.record(unset.length === 0 ? { path, deleted: true } : { path, unset });
  return ExitCode.OK;
}

export const quota: Command = {
  name: 'quota',
  summary: 'set, show, list or remove quotas (zkCli: setquota, listquota, delquota)',
  usage: 'set PATH [-n COUNT] [-b BYTES] [-N COUNT] [-B BYTES] | get PATH | list | rm PATH [-n] [-b] [-N] [-B]',
  details:
    'Quotas live in /zookeeper/quota as zkCli keeps them, so zkCli and zkts see each other\'s. -n/-b are soft\n' +
    'limits (the server logs when they are passed), -N/-B hard ones (the server refuses the write with\n' +
    'QUOTA_EXCEEDED); a 3.8 server checks them only when started with -Dzookeeper.enforceQuota=true, otherwise\n' +
    'it just counts. `set` on a path with a quota changes only the limits given; a quota inside or above\n' +
    'another one is refused. `get` prints what zkCli\'s listquota prints; `rm` without flags removes the quota,\n' +
    'with flags only those limits. A path without a quota: exit 2. Needs --server without a chroot.\n' +
    'JSON: get, list and set: {"path","limits":{"count","bytes","countHardLimit","bytesHardLimit"},\n' +
    '"stats":{"count","bytes"}} (a limit not set is left out); rm: {"path","deleted":true} or {"path","unset":[…]}.',
  options: {},
  actionOptions: { set: SET_OPTIONS, rm: RM_OPTIONS },
  async run(context: CommandContext): Promise<number> {
    const action = positional(context, 0, 'set, get, list or rm');
    if (action === 'list') {
      atMost(context, 1);
      return runList(context);
    }
    if (action !== 'set' && action !== 'get' && action !== 'rm') throw new UsageError(`unknown action '${action}' (set, get, list or rm)`);
    atMost(context, 2);
    const path = positional(context, 1, 'PATH');
    if (action === 'set') return runSet(context, path);
    if (action === 'get') return runGet(context, path);
    return runRm(context, path);
  },
};

/** zkCli's names, with zkCli's flags: each runs one action of `quota`. */
function zkCliAlias(name: string, action: 'set' | 'get' | 'rm', usage: string, options: OptionSpecs): Command {
  return {
    name,
    summary: `same as \`quota ${action}\``,
    usage,
    details: `The same as \`zkts quota ${action}\`: see \`zkts quota --help\`.`,
    options,
    aliasOf: `quota ${action}`,
    async run(context: CommandContext): Promise<number> {
      atMost(context, 1);
      const path = positional(context, 0, 'PATH');
      if (action === 'set') return runSet(context, path);
      if (action === 'get') return runGet(context, path);
      return runRm(context, path);
    },
  };
}

export const setquota = zkCliAlias('setquota', 'set', '[-n COUNT] [-b BYTES] [-N COUNT] [-B BYTES] PATH', SET_OPTIONS);
export const listquota = zkCliAlias('listquota', 'get', 'PATH', {});
export const delquota = zkCliAlias('delquota', 'rm', '[-n] [-b] [-N] [-B] PATH', RM_OPTIONS);
