/** `get PATH [--stat]`: a node's data, byte for byte (a newline is added only on a terminal). */
import { flag } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { dataRecord, formatStat, statRecord } from '../output.js';

export const get: Command = {
  name: 'get',
  summary: "print a node's data",
  usage: 'PATH [--stat]',
  details: 'JSON: {"path","data","encoding","stat"}; data that is not UTF-8 is given in base64.',
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
    if ((context.io.stdout.isTTY === true || context.interactive) && data.length > 0 && !endsWithNewline) context.out.raw('\n');
    if (flag(context.args, 'stat')) context.out.line(formatStat(stat));
    return ExitCode.OK;
  },
};
