/** `stat PATH`: a node's metadata. Exit 2 when it does not exist. */
import { ServerError } from '@zkts/protocol';

import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { formatStat, statRecord } from '../output.js';

export const stat: Command = {
  name: 'stat',
  summary: "print a node's stat (versions, zxids, times, sizes)",
  usage: 'PATH',
  details: 'Exit 2 when the node does not exist. JSON: {"path","stat"}, zxids as decimal strings.',
  options: {},
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = positional(context, 0, 'PATH');
    const client = await context.session.client();
    const result = await client.exists(path, context.session.call(context.signal));
    // exists() answers null rather than NONODE; report it the way every other command does.
    if (result === null) throw new ServerError(-101, path);
    context.out.emit({ path, stat: statRecord(result) }, () => formatStat(result));
    return ExitCode.OK;
  },
};
