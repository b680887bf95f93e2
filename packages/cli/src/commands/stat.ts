/**
 * `stat PATH [-w]`: a node's metadata. Exit 2 when it does not exist. -w (zkCli's) leaves a one-shot watch,
 * which also fires when a missing node is created.
 */
import { ServerError } from '@zkts/protocol';

import { flag } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { WATCH_OPTION, followWatch } from '../one-shot-watch.js';
import { formatStat, statRecord } from '../output.js';

export const stat: Command = {
  name: 'stat',
  summary: "print a node's stat (versions, zxids, times, sizes)",
  usage: 'PATH [-w]',
  details:
    'Exit 2 when the node does not exist. JSON: {"path","stat"}, zxids as decimal strings.\n' +
    '-w leaves a watch on the node and prints its event (dataChanged, deleted; created for a missing node, which\n' +
    'is still exit 2 at once): the command waits for it, except in the shell, where it is printed when it comes.',
  options: { watch: WATCH_OPTION },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = positional(context, 0, 'PATH');
    const client = await context.session.client();
    const call = context.session.call(context.signal);
    let result;
    let watch;
    if (flag(context.args, 'watch')) ({ stat: result, watch } = await client.exists(path, { ...call, watch: true }));
    else result = await client.exists(path, call);
    // exists() answers null rather than NONODE; report it the way every other command does. In the shell the
    // watch stays and reports the node's creation, as zkCli's does.
    if (result === null) {
      if (watch !== undefined && context.deferWatch !== undefined) context.deferWatch(watch, context.out);
      throw new ServerError(-101, path);
    }
    const stat = result;
    context.out.emit({ path, stat: statRecord(stat) }, () => formatStat(stat));
    return watch === undefined ? ExitCode.OK : followWatch(context, watch, `watch on ${path}`);
  },
};
