/**
 * `get PATH [--stat] [-w] [-b|-x]`: a node's data, byte for byte (a newline is added only on a terminal, or
 * before the stat block of --stat or the event of -w so they never run together). On a terminal the output
 * always ends a line, an empty node included (an empty line, as zkCli prints it): the prompt never lands after
 * the data. -w, -b and -x are zkCli's: a one-shot data watch, the data in base64, the data as a hex dump.
 */
import type { WatchOptions } from '@zkts/protocol';

import { flag } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { WATCH_OPTION, followWatch } from '../one-shot-watch.js';
import { dataRecord, formatStat, statRecord } from '../output.js';

/** `hexdump -C`'s layout: offset, 16 bytes in hex (two groups of 8), the printable ones between bars. */
export function hexDump(data: Uint8Array): string {
  const lines: string[] = [];
  for (let offset = 0; offset < data.length; offset += 16) {
    const row = data.subarray(offset, offset + 16);
    const hex = Array.from(row, (b) => b.toString(16).padStart(2, '0'));
    const left = hex.slice(0, 8).join(' ');
    const right = hex.slice(8).join(' ');
    const text = Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${left.padEnd(23)}  ${right.padEnd(23)}  |${text}|`);
  }
  return lines.join('\n');
}

function base64(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

export const get: Command = {
  name: 'get',
  summary: "print a node's data",
  usage: 'PATH [--stat] [-w] [-b|-x]',
  details:
    'The data is written as it is; a newline is added on a terminal (an empty node: an empty line), and between\n' +
    'the data and the stat block of --stat or the event of -w (so `get -s` on an empty node starts with an empty\n' +
    'line). -b prints the data in base64, -x as a hex dump (offset, bytes, text), each ending with a newline.\n' +
    '-w leaves a watch on the data and prints its event (dataChanged, deleted): the command waits for it,\n' +
    'except in the shell, where it is printed when it comes.\n' +
    'JSON: {"path","data","encoding","stat"}, with or without --stat; data that is not UTF-8 is given in base64\n' +
    '(with -b always, with -x as "hex").',
  options: {
    stat: { type: 'boolean', short: 's', description: "also print the node's stat" },
    watch: WATCH_OPTION,
    base64: { type: 'boolean', short: 'b', description: 'print the data in base64 (zkCli -b)' },
    hex: { type: 'boolean', short: 'x', description: 'print the data as a hex dump (zkCli -x)' },
  },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = positional(context, 0, 'PATH');
    const asBase64 = flag(context.args, 'base64');
    const asHex = flag(context.args, 'hex');
    if (asBase64 && asHex) throw new UsageError('-b and -x cannot be combined');
    const client = await context.session.client();
    const call = context.session.call(context.signal);
    const watching = flag(context.args, 'watch');
    const options: WatchOptions = watching ? { ...call, watch: true } : call;
    const result = await client.getData(path, options);
    const { data, stat } = result;
    const withStat = flag(context.args, 'stat');
    if (context.out.json) {
      const shown = asBase64 ? { data: base64(data), encoding: 'base64' } : asHex ? { data: Buffer.from(data).toString('hex'), encoding: 'hex' } : dataRecord(data);
      context.out.record({ path, ...shown, stat: statRecord(stat) });
    } else if (asBase64 || asHex) {
      context.out.line(asBase64 ? base64(data) : hexDump(data));
      if (withStat) context.out.line(formatStat(stat));
    } else {
      context.out.raw(data);
      const endsWithNewline = data.length > 0 && data[data.length - 1] === 0x0a;
      // With the stat block or a watch event after it, or on a terminal, the data always ends its own line (an
      // empty node: an empty line).
      if (!endsWithNewline && (withStat || watching || context.io.stdout.isTTY === true || context.interactive)) context.out.raw('\n');
      if (withStat) context.out.line(formatStat(stat));
    }
    return result.watch === undefined ? ExitCode.OK : followWatch(context, result.watch, `data watch on ${path}`);
  },
};
