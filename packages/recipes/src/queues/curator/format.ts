/**
 * The bytes of a Curator queue item (Curator's ItemSerializer, so both libraries read each other's items): a
 * big-endian int32 version 0x00010001, then per message the opcode 0x01, a big-endian int32 length and the
 * message's bytes (as the user's serializer made them), then the opcode 0x02. One node can carry several
 * messages (putMulti). Curator stops reading at 0x02 and ignores whatever follows, which is where zkts puts its
 * put marker (put.ts): `zkts-put:` and a uuid, so a put whose reply was lost can find its item again.
 */
import { QueueItemCorruptError } from '../../errors.js';
import { checkArg, rules } from '../../internal/index.js';

/** Turns a message into bytes and back, as Curator's QueueSerializer does; both sides of a queue must agree. */
export interface QueueSerializer<T> {
  /** The bytes of one message. */
  serialize(item: T): Uint8Array;
  /** A message from its bytes (may throw: the node is then reported as corrupt and removed, as Curator does). */
  deserialize(bytes: Uint8Array): T;
}

/** The serializer of byte messages: what goes in comes out. */
export const bytesSerializer: QueueSerializer<Uint8Array> = Object.freeze({
  serialize(item: Uint8Array) {
    checkArg('bytesSerializer.serialize', 'message', item, rules.bytes);
    return item;
  },
  deserialize: (bytes: Uint8Array) => bytes,
});

const VERSION = 0x00010001;
const ITEM = 0x01;
const EOF = 0x02;
const MARKER = new TextEncoder().encode('zkts-put:');

/** Encodes messages as one item node's data, with zkts's put marker after the end (ignored by Curator). */
export function encodeItem(messages: readonly Uint8Array[], marker?: string): Uint8Array {
  const tail = marker === undefined ? new Uint8Array() : new TextEncoder().encode(marker);
  const size = 4 + messages.reduce((n, m) => n + 5 + m.length, 0) + 1 + (tail.length > 0 ? MARKER.length + tail.length : 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setInt32(0, VERSION);
  let at = 4;
  for (const m of messages) {
    out[at] = ITEM;
    view.setInt32(at + 1, m.length);
    out.set(m, at + 5);
    at += 5 + m.length;
  }
  out[at++] = EOF;
  if (tail.length > 0) {
    out.set(MARKER, at);
    out.set(tail, at + MARKER.length);
  }
  return out;
}

/** The messages of an item node and the zkts put marker after them, if any. */
export interface DecodedItem {
  readonly messages: Uint8Array[];
  readonly marker: string | undefined;
}

/** Decodes an item node's data; throws QueueItemCorruptError when it is not Curator's format. */
export function decodeItem(data: Uint8Array): DecodedItem {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const need = (at: number, n: number): void => {
    if (at + n > data.length) throw new QueueItemCorruptError(`queue item truncated at byte ${at}`);
  };
  need(0, 4);
  const version = view.getInt32(0);
  if (version !== VERSION) throw new QueueItemCorruptError(`queue item version ${version}, expected ${VERSION}`);
  const messages: Uint8Array[] = [];
  let at = 4;
  for (;;) {
    need(at, 1);
    const op = data[at]!;
    at += 1;
    if (op === EOF) break;
    if (op !== ITEM) throw new QueueItemCorruptError(`queue item opcode ${op} at byte ${at - 1}`);
    need(at, 4);
    const length = view.getInt32(at);
    if (length < 0) throw new QueueItemCorruptError(`queue item length ${length}`);
    need(at + 4, length);
    messages.push(data.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return { messages, marker: readMarker(data.subarray(at)) };
}

function readMarker(rest: Uint8Array): string | undefined {
  if (rest.length <= MARKER.length || MARKER.some((b, i) => rest[i] !== b)) return undefined;
  return new TextDecoder().decode(rest.subarray(MARKER.length));
}
