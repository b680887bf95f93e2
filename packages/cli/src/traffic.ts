/**
 * Recorded traffic (a pcap capture or a `zkts proxy --record` transcript) decoded into one conversation per
 * connection. Shared by `decode` (which prints it), `decode --stats` (which analyses it) and `txnlog
 * --clients` (which learns from the handshakes which client address each session id belongs to).
 */
import { readFile } from 'node:fs/promises';

import type { CommandContext } from './command.js';
import { ConnectionConversation } from './conversation.js';
import type { ConversationLine } from './conversation.js';
import { CliError, ExitCode } from './exit-codes.js';
import { readAll } from './input.js';
import { isPcap, readCapture } from './pcap/index.js';
import { fromHex, looksLikeJson, parseTranscript } from './transcript.js';

export interface DecodedConnection {
  conn: number;
  /** Why the connection was not decoded, if it was not. */
  skipped?: string;
  client: string | undefined;
  server: string | undefined;
  lines: ConversationLine[];
  problems: string[];
  conversation: ConnectionConversation;
}

export interface DecodedTraffic {
  kind: 'pcap' | 'transcript';
  connections: DecodedConnection[];
  /** Damage to the capture file itself. */
  error: string | undefined;
}

export async function loadInput(context: CommandContext, file: string): Promise<Uint8Array> {
  if (file === '-') return readAll(context.io.stdin);
  try {
    return new Uint8Array(await readFile(file));
  } catch (error) {
    throw new CliError(ExitCode.NO_INPUT, `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function decodeCapture(bytes: Uint8Array, port: number): DecodedTraffic {
  const capture = readCapture(bytes, port);
  const connections = capture.connections.map((connection): DecodedConnection => {
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
  return { kind: 'pcap', connections, error: capture.error };
}

function decodeTranscript(bytes: Uint8Array): DecodedTraffic {
  const transcript = parseTranscript(new TextDecoder().decode(bytes));
  const connections = transcript.connections.map((connection): DecodedConnection => {
    const conversation = new ConnectionConversation(connection.id, connection.start);
    const lines = connection.frames.map((frame) => conversation.frame(frame.dir, fromHex(frame.hex), connection.start + frame.t));
    return { conn: connection.id, client: connection.client, server: connection.server, lines, problems: [], conversation };
  });
  return { kind: 'transcript', connections, error: undefined };
}

/** Decodes a capture or transcript (told apart by content); DATA_ERROR when it is neither. */
export function decodeTraffic(bytes: Uint8Array, file: string, port: number): DecodedTraffic {
  if (isPcap(bytes)) return decodeCapture(bytes, port);
  if (looksLikeJson(bytes)) return decodeTranscript(bytes);
  throw new CliError(ExitCode.DATA_ERROR, `${file} is neither a pcap capture nor a JSON transcript`);
}

/** Session id → the client address of every connection whose handshake the server answered with it. */
export function sessionClients(traffic: DecodedTraffic): Map<bigint, string[]> {
  const out = new Map<bigint, string[]>();
  for (const connection of traffic.connections) {
    for (const line of connection.lines) {
      const id = line.entry.kind === 'connected' ? line.entry.body?.['sessionId'] : undefined;
      if (typeof id !== 'string' || id === '0' || connection.client === undefined) continue;
      const list = out.get(BigInt(id)) ?? [];
      if (!list.includes(connection.client)) list.push(connection.client);
      out.set(BigInt(id), list);
    }
  }
  return out;
}
