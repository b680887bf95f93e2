/** `set PATH DATA|- [-v VERSION]`: replace a node's data. */
import { intOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { dataArgument } from '../input.js';
import { statRecord } from '../output.js';

export const set: Command = {
  name: 'set',
  summary: "replace a node's data",
  usage: 'PATH DATA|- [-v VERSION]',
  details: 'DATA `-` reads the data from standard input. With -v, fail (exit 4) unless the node has that version.\nPrints nothing; JSON: {"path","stat"}.',
  options: { version: { type: 'string', short: 'v', arg: 'VERSION', description: 'expected data version (-1: any)' } },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 2);
    const path = positional(context, 0, 'PATH');
    const data = await dataArgument(context, positional(context, 1, 'DATA'));
    const version = intOption(context.args, 'version', -1);
    const client = await context.session.client();
    const options = { ...context.session.call(context.signal), ...(version === undefined ? {} : { version }) };
    const stat = await client.setData(path, data, options);
    context.out.record({ path, stat: statRecord(stat) });
    return ExitCode.OK;
  },
};
