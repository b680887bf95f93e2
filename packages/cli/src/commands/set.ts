/** `set PATH DATA|- [-v VERSION] [-s] [-b]`: replace a node's data; -s and -b are zkCli's (print the stat, base64 data). */
import { flag, intOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { dataArgument } from '../input.js';
import { formatStat, statRecord } from '../output.js';

/** Strict base64 (padding optional): a typo must not become other bytes silently. */
export function fromBase64(text: string): Uint8Array {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(trimmed) || trimmed.replace(/=+$/, '').length % 4 === 1) throw new UsageError('-b: DATA is not base64');
  return new Uint8Array(Buffer.from(trimmed, 'base64'));
}

export const set: Command = {
  name: 'set',
  summary: "replace a node's data",
  usage: 'PATH DATA|- [-v VERSION] [-s] [-b]',
  details:
    'DATA `-` reads the data from standard input; with -b, DATA is base64. With -v, fail (exit 4) unless the\n' +
    "node has that version. Prints nothing, or with -s the node's new stat; JSON: {\"path\",\"stat\"}.",
  options: {
    version: { type: 'string', short: 'v', arg: 'VERSION', description: 'expected data version (-1: any)' },
    stat: { type: 'boolean', short: 's', description: "print the node's new stat (zkCli -s)" },
    base64: { type: 'boolean', short: 'b', description: 'DATA is base64 (zkCli -b)' },
  },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 2);
    const path = positional(context, 0, 'PATH');
    const given = await dataArgument(context, positional(context, 1, 'DATA'));
    const data = flag(context.args, 'base64') && given !== null ? fromBase64(typeof given === 'string' ? given : Buffer.from(given).toString('latin1')) : given;
    const version = intOption(context.args, 'version', -1);
    const client = await context.session.client();
    const options = { ...context.session.call(context.signal), ...(version === undefined ? {} : { version }) };
    const stat = await client.setData(path, data, options);
    if (flag(context.args, 'stat')) context.out.emit({ path, stat: statRecord(stat) }, formatStat(stat));
    else context.out.record({ path, stat: statRecord(stat) });
    return ExitCode.OK;
  },
};
