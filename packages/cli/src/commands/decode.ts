/**
 * `zkts decode FILE`: recorded traffic as the conversation it was. FILE is a classic pcap capture (told by
 * its magic number) or a frame transcript (JSON, as `zkts proxy --record` writes). `-` reads stdin.
 */
import { flag, intOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { conversationRecord, formatConversationLine } from '../output.js';
import { isPcap } from '../pcap/index.js';
import { formatReport, TrafficStats } from '../stats/index.js';
import { decodeTraffic, loadInput } from '../traffic.js';
import type { DecodedConnection } from '../traffic.js';

/** Feeds every decoded line to the analysis, all connections merged in time order. */
function analyse(connections: readonly DecodedConnection[]): TrafficStats {
  const stats = new TrafficStats();
  const lines = [];
  for (const connection of connections) {
    if (connection.skipped !== undefined) continue;
    stats.open(connection.conn, connection.client, connection.conversation.start);
    lines.push(...connection.lines);
  }
  // A stable sort keeps each connection's own order for frames seen in the same millisecond.
  lines.sort((a, b) => a.time - b.time);
  for (const line of lines) stats.add(line);
  // Closed in the order they ended: past the cap, the analysis keeps the connections that closed last.
  const ends = connections.flatMap((c) => {
    const last = c.lines[c.lines.length - 1];
    return c.skipped === undefined && last !== undefined ? [{ conn: c.conn, time: last.time }] : [];
  });
  for (const { conn, time } of ends.sort((a, b) => a.time - b.time)) stats.close(conn, time);
  return stats;
}


export const decode: Command = {
  name: 'decode',
  summary: 'decode recorded traffic (pcap capture or frame transcript) into the conversation',
  usage: 'FILE [--port PORT] [--stats]',
  details:
    'FILE: a classic libpcap capture (e.g. `tcpdump -i any -w FILE port 2181`; Ethernet, Linux SLL/SLL2, raw\n' +
    'IP, loopback; IPv4/IPv6; TCP reassembled per connection) or a JSON frame transcript (`zkts proxy\n' +
    '--record`). `-` reads standard input. One line per request, reply, event, ping or auth, with xid, op,\n' +
    'path, result and key fields; replies show their latency. A summary goes to stderr. Exit 65 when any\n' +
    'frame could not be decoded or the capture is damaged (everything decodable is still printed).\n' +
    '\n' +
    '--stats prints an analysis instead of the conversation: latency percentiles per op (nearest rank, so\n' +
    'each is one of the latencies the conversation shows), errors per code, the slowest requests, request\n' +
    'rate over time, watch fan-out (how many sessions each change woke: the herd factor; a lock whose\n' +
    'waiters all watch one node wakes them all on every release, a fair lock wakes one) and a timeline per\n' +
    'session (connects, resumes refused because the session expired, pings, longest client silence, close).',
  options: {
    port: { type: 'string', arg: 'PORT', description: 'the server port in a capture (default 2181)' },
    stats: { type: 'boolean', description: 'print the traffic analysis instead of the conversation (--json: one object)' },
  },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const file = positional(context, 0, 'FILE');
    const port = intOption(context.args, 'port', 1) ?? 2181;
    const bytes = await loadInput(context, file);
    const { connections, error: fileError } = decodeTraffic(bytes, file, port);
    const { out } = context;
    if (flag(context.args, 'stats')) {
      const report = analyse(connections).report();
      out.emit(report, () => formatReport(report));
      const problems = connections.reduce((n, c) => n + c.problems.length + c.conversation.counts.errors, 0);
      for (const connection of connections) for (const problem of connection.problems) out.error(`decode: #${connection.conn}: ${problem}`);
      if (fileError !== undefined) throw new CliError(ExitCode.DATA_ERROR, `${file}: ${fileError}`);
      return problems > 0 ? ExitCode.DATA_ERROR : ExitCode.OK;
    }
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
