/**
 * Writes what `zkts proxy --record` saw as a transcript (see transcript.ts). The whole file is rewritten
 * (to a temporary name, then renamed) whenever a connection ends and at shutdown, so it is always complete
 * JSON, even if the proxy is killed later.
 */
import { rename, writeFile } from 'node:fs/promises';

import type { Direction, Transcript, TranscriptConnection } from './transcript.js';
import { toHex } from './transcript.js';

export class TranscriptRecorder {
  private readonly file: string;
  private readonly transcript: Transcript;
  private writing: Promise<void> = Promise.resolve();

  constructor(file: string, about: string) {
    this.file = file;
    this.transcript = { about, connections: [] };
  }

  open(id: number, client: string, server: string, start: number): TranscriptConnection {
    const connection: TranscriptConnection = { id, start, client, server, frames: [] };
    this.transcript.connections.push(connection);
    return connection;
  }

  frame(connection: TranscriptConnection, dir: Direction, time: number, payload: Uint8Array): void {
    // To the microsecond, as the proxy's clock reads: rounding to whole ms per connection could put a
    // notification before the write that caused it on another connection, and decode would match it elsewhere.
    connection.frames.push({ dir, t: Math.round((time - connection.start) * 1000) / 1000, hex: toHex(payload) });
  }

  /** Serialised: each save sees every frame recorded before it was asked for. */
  save(): Promise<void> {
    this.writing = this.writing.then(async () => {
      const temporary = `${this.file}.tmp-${process.pid}`;
      await writeFile(temporary, `${JSON.stringify(this.transcript, null, 1)}\n`);
      await rename(temporary, this.file);
    });
    return this.writing;
  }
}
