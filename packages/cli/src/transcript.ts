/**
 * Frame transcripts: the JSON format of the shared Java-client recording, which `zkts proxy --record` writes
 * and `zkts decode` reads.
 *
 *   { "about"?: string, "connections": [ { "id": number, "start": epoch ms, "client"?: string,
 *       "server"?: string, "frames": [ { "dir": "c2s" | "s2c", "t": ms since start (fractional), "hex": payload } ] } ] }
 *
 * A frame is the payload after the 4-byte length prefix.
 */
import { CliError, ExitCode } from './exit-codes.js';

export type Direction = 'c2s' | 's2c';

export interface TranscriptFrame {
  dir: Direction;
  t: number;
  hex: string;
}

export interface TranscriptConnection {
  id: number;
  start: number;
  client?: string;
  server?: string;
  frames: TranscriptFrame[];
}

export interface Transcript {
  about?: string;
  connections: TranscriptConnection[];
}

export function looksLikeJson(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    return byte === 0x7b; // '{'
  }
  return false;
}

function bad(message: string): CliError {
  return new CliError(ExitCode.DATA_ERROR, `not a valid transcript: ${message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseTranscript(text: string): Transcript {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw bad(error instanceof Error ? error.message : String(error));
  }
  if (!isRecord(json) || !Array.isArray(json['connections'])) throw bad('expected an object with a "connections" array');
  const connections = json['connections'].map((raw: unknown, index): TranscriptConnection => {
    if (!isRecord(raw) || !Array.isArray(raw['frames'])) throw bad(`connections[${index}] has no "frames" array`);
    const frames = raw['frames'].map((frame: unknown, f): TranscriptFrame => {
      const where = `connections[${index}].frames[${f}]`;
      if (!isRecord(frame)) throw bad(`${where} is not an object`);
      const { dir, hex, t } = frame;
      if (dir !== 'c2s' && dir !== 's2c') throw bad(`${where}.dir must be "c2s" or "s2c"`);
      if (typeof hex !== 'string' || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw bad(`${where}.hex is not a hex string`);
      return { dir, hex, t: typeof t === 'number' ? t : 0 };
    });
    const connection: TranscriptConnection = {
      id: typeof raw['id'] === 'number' ? raw['id'] : index,
      start: typeof raw['start'] === 'number' ? raw['start'] : 0,
      frames,
    };
    if (typeof raw['client'] === 'string') connection.client = raw['client'];
    if (typeof raw['server'] === 'string') connection.server = raw['server'];
    return connection;
  });
  const transcript: Transcript = { connections };
  if (typeof json['about'] === 'string') transcript.about = json['about'];
  return transcript;
}

export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
