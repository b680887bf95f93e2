/**
 * The JuteReader every connection reads its frames through. A frame is read to the end within the callback of
 * the socket read that brought it, so one reader can serve all of them: no reader, no view and no options record
 * per frame. A frame that arrives while the reader is out (a listener that made a connection read synchronously)
 * gets a reader of its own.
 */
import { JuteReader } from '../../codec/jute/reader.js';

const NO_BYTES = new Uint8Array(0);

/** Frames read from arrays up to this size leave the reader pointing at them: the shared read buffer is one. */
const KEEP_SOURCE_MAX = 64 * 1024;

let spare: JuteReader | null = new JuteReader(NO_BYTES);

export function borrowReader(): JuteReader {
  const r = spare ?? new JuteReader(NO_BYTES);
  spare = null;
  return r;
}

/** Takes the reader back after a frame of `source`; a large frame assembled from several reads is let go of. */
export function giveBackReader(r: JuteReader, source: Uint8Array): void {
  spare = source.byteLength <= KEEP_SOURCE_MAX ? r : r.reset(NO_BYTES, 0, 0);
}
