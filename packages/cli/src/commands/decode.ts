/**
 * `zkts decode FILE`: recorded traffic as the conversation it was. FILE is a classic pcap capture (told by
 * its magic number) or a frame transcript (JSON, as `zkts proxy --record` writes). `-` reads stdin.
 */
import { readFile } from 'node:fs/promises';

import { intOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ConnectionConversation } from '../conversation.js';
import type { ConversationLine } from '../conversation.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { readAll } from '../input.js';
import { conversationRecord, formatConversationLine } from '../output.js';
import { isPcap, readCapture } from '../pcap/index.js';
import { fromHex, looksLikeJson, parseTranscript } from '../transcript.js';

interface Decoded {
  conn: number;
  /** Why the connection was not decoded, if it was not. */
  skipped?: string;
  client: string | undefined;
  server: string | undefined;
  lines: ConversationLine[];
  problems: string[];
  conversation: ConnectionConversation;
}

async function load(context: CommandContext, file: string): Promise<Uint8Array> {
  if (file === '-') return readAll(context.io.stdin);
  try {
    return new Uint8Array(await readFile(file));
  } catch (error) {
    throw new CliError(ExitCode.NO_INPUT, `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function decodeCapture(bytes: Uint8Array, port: number): { connections: Decoded[]; error: string | undefined } {
  const capture = readCapture(bytes, port);
  const connections = capture.connections.map((connection): Decoded => {
    const conversation = new ConnectionConversation(connection.id, connection.start);
    if (!connection.opened) {
      // Without the start of the streams, neither the handshake nor the first frame boundary is known.
      const skipped = 'the capture started after this connection opened (no SYN), so it is not decoded';
      return { conn: connection.id, client: connection.client, server: connection.server, lines: [], problems: [], conversation, skipped };
    }
    const lines: ConversationLine[] = [];
    let last = connection.start;
    for (const chunk of connection.chunks) {
      lines.push(...conversation.bytes(chunk.dir, chunk.data, chunk.time));
      last = chunk.time;
    }
    lines.push(...conversation.end(last));
    return { conn: connection.id, client: connection.client, server: connection.server, lines, problems: connection.problems, conversation };
  });
  return { connections, error: capture.error };
}

function decodeTranscript(bytes: Uint8Array): Decoded[] {
  const transcript = parseTranscript(new TextDecoder().decode(bytes));
  return transcript.connections.map((connection): Decoded => {
    const conversation = new ConnectionConversation(connection.id, connection.start);
    const lines = connection.frames.map((frame) => conversation.frame(frame.dir, fromHex(frame.hex), connection.start + frame.t));
    return { conn: connection.id, client: connection.client, server: connection.server, lines, problems: [], conversation };
  });
}

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
    const bytes = await load(context, file);
    let connections: Decoded[];
    let fileError: string | undefined;
    if (isPcap(bytes)) {
      ({ connections, error: fileError } = decodeCapture(bytes, port));
    } else if (looksLikeJson(bytes)) {
      connections = decodeTranscript(bytes);
    } else {
      throw new CliError(ExitCode.DATA_ERROR, `${file} is neither a pcap capture nor a JSON transcript`);
    }
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
