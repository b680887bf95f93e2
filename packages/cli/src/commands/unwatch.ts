/**
 * `unwatch PATH [-c|-d|-p|-r|-a] [-l]`: removes this session's watches on PATH; the removed watches report
 * it (childWatchRemoved, dataWatchRemoved). zkCli's `removewatches`. For the shell, where `-w` reads leave
 * watches; a command line's fresh session has none (exit 7, NO_WATCHER).
 */
import type { RemoveWatchType } from '@zkts/protocol';

import { flag } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';

const KINDS: readonly (readonly [string, RemoveWatchType])[] = [
  ['children', 'children'],
  ['data', 'data'],
  ['persistent', 'persistent'],
  ['recursive', 'persistent-recursive'],
  ['any', 'any'],
];

export const unwatch: Command = {
  name: 'unwatch',
  summary: "remove this session's watches on a node (in the shell: those left by ls -w, get -w, stat -w)",
  usage: 'PATH [-c|-d|-p|-r|-a] [-l]',
  details:
    'Without a kind, every watch on PATH goes (-a). The server answers NO_WATCHER (exit 7) when the session has\n' +
    'no such watch there, as it always does for a command line, whose session is new. -l removes them in this\n' +
    'client only, without asking the server (when it is unreachable). Prints nothing; the removed watches\n' +
    'report their removal like any event. JSON: {"path","removed":KIND}.',
  options: {
    children: { type: 'boolean', short: 'c', description: 'child watches (ls -w)' },
    data: { type: 'boolean', short: 'd', description: 'data watches (get -w, stat -w)' },
    persistent: { type: 'boolean', short: 'p', description: 'persistent watches (not recursive)' },
    recursive: { type: 'boolean', short: 'r', description: 'persistent recursive watches' },
    any: { type: 'boolean', short: 'a', description: 'every kind (the default)' },
    local: { type: 'boolean', short: 'l', description: 'remove them here only, without the server' },
  },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = positional(context, 0, 'PATH');
    const chosen = KINDS.filter(([option]) => flag(context.args, option));
    if (chosen.length > 1) throw new UsageError(`choose one kind of watch, not ${chosen.map(([o]) => `--${o}`).join(' and ')}`);
    const type = chosen[0]?.[1] ?? 'any';
    const client = await context.session.client();
    await client.removeWatches(path, type, { ...context.session.call(context.signal), local: flag(context.args, 'local') });
    context.out.record({ path, removed: type });
    return ExitCode.OK;
  },
};
