/**
 * `get PATH [--stat]`: a node's data, byte for byte (a newline is added only on a terminal, or before the stat
 * block of --stat so the two never run together). On a terminal the output always ends a line, an empty node
 * included (an empty line, as zkCli prints it): the prompt never lands after the data.
 */
import { flag } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { dataRecord, formatStat, statRecord } from '../output.js';

export const get: Command = {
  name: 'get',
  summary: "print a node's data",
  usage: 'PATH [--stat]',
  details:
    'The data is written as it is; a newline is added on a terminal (an empty node: an empty line), and with\n' +
    '--stat between the data and the stat block (so `get -s` on an empty node starts with an empty line).\n' +
    'JSON: {"path","data","encoding","stat"}, with or without --stat; data that is not UTF-8 is given in base64.',
  options: { stat: { type: 'boolean', short: 's', description: "also print the node's stat" } },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = positional(context, 0, 'PATH');
    const client = await context.session.client();
    const { data, stat } = await client.getData(path, context.session.call(context.signal));
    if (context.out.json) {
      context.out.record({ path, ...dataRecord(data), stat: statRecord(stat) });
      return ExitCode.OK;
    }
    context.out.raw(data);
    const endsWithNewline = data.length > 0 && data[data.length - 1] === 0x0a;
    const withStat = flag(context.args, 'stat');
    // With the stat block after it, or on a terminal, the data always ends its own line (an empty node: an empty line).
    if (!endsWithNewline && (withStat || context.io.stdout.isTTY === true || context.interactive)) context.out.raw('\n');
    if (withStat) context.out.line(formatStat(stat));
    return ExitCode.OK;
  },
};
