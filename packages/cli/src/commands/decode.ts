/**
 * `zkts decode FILE`: recorded traffic as the conversation it was. FILE is a classic pcap capture (told by
 * its magic number) or a frame transcript (JSON, as `zkts proxy --record` writes). `-` reads stdin.
 */
import { intOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { conversationRecord, formatConversationLine } from '../output.js';
import { isPcap } from '../pcap/index.js';
import { decodeTraffic, loadInput } from '../traffic.js';

export const decode: Command = {
  name: 'decode',
  summary: 'decode recorded traffic (pcap capture or frame transcript) into the conversation',
  usage: 'FILE [--port PORT]',
  details:
    'FILE: a classic libpcap capture (e.g. `tcpdump -i any -w FILE port 2181`; Ethernet, Linux SLL/SLL2, raw\n' +
    'IP, loopback; IPv4/IPv6; TCP reassembled per connection) or a JSON frame transcript (`zkts proxy\n' +
    '--record`). `-` reads standard input. One line per request, reply, event, ping or auth, with xid, op,\n' +
    'path, result and key fields; replies show their latency. A summary goes to stderr. Exit 65 when any\n' +
    'frame could not be decoded or the capture is damaged (everything decodable is still printed).',
  options: { port: { type: 'string', arg: 'PORT', description: 'the server port in a capture (default 2181)' } },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const file = positional(context, 0, 'FILE');
    const port = intOption(context.args, 'port', 1) ?? 2181;
    const bytes = await loadInput(context, file);
    const { connections, error: fileError } = decodeTraffic(bytes, file, port);
    const { out } = context;
    const totals = { frames: 0, requests: 0, replies: 0, events: 0, errors: 0 };
    let problems = 0;
    let skipped = 0;
    for (const connection of connections) {
      const peers = connection.client === undefined ? '' : ` ${connection.client} -> ${connection.server ?? '?'}`;
      if (connection.skipped !== undefined) {
        out.emit({ conn: connection.conn, event: 'skipped', client: connection.client ?? null, server: connection.server ?? null, reason: connection.skipped }, `#${connection.conn} skipped${peers}: ${connection.skipped}`);
        skipped++;
        continue;
      }
      out.emit({ conn: connection.conn, event: 'open', client: connection.client ?? null, server: connection.server ?? null }, `#${connection.conn} open${peers}`);
      for (const line of connection.lines) out.emit(conversationRecord(line), () => formatConversationLine(line));
      for (const problem of connection.problems) out.error(`decode: #${connection.conn}: ${problem}`);
      problems += connection.problems.length;
      for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += connection.conversation.counts[key];
    }
    if (connections.length === 0) out.error(`decode: no ZooKeeper connection found in ${file}${isPcap(bytes) ? ` (server port ${port}; see --port)` : ''}`);
    out.note(
      `${connections.length - skipped} connection(s)${skipped > 0 ? ` (${skipped} joined mid-stream, skipped)` : ''}: ${totals.frames} frames, ${totals.requests} requests, ${totals.replies} replies, ` +
        `${totals.events} events, ${totals.errors} decode errors`,
    );
    if (fileError !== undefined) throw new CliError(ExitCode.DATA_ERROR, `${file}: ${fileError}`);
    if (totals.errors > 0 || problems > 0) return ExitCode.DATA_ERROR;
    return ExitCode.OK;
  },
};
