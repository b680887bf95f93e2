// Seeded hostile input for the server: valid requests of the client opcodes (auth aside: a bad one closes),
// then mutated — body bytes
// flipped, inner lengths made odd, bodies cut or replaced by garbage, now and then a header (xid/opcode) or a
// handshake mutated, which ends that connection. `ZKTS_SEED` replays a run; the test prints the seed it used.
import type { MultiOp } from '@zkts/protocol/codec';

import { connectFrame, requestFrame } from './raw.js';

const OPEN = [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A small, fast PRNG (mulberry32): `rand(n)` is 0..n-1. */
export function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n) >>> 0;
  };
}

/** One valid request of each client opcode the server accepts (xids are rewritten by the caller's order). */
export function baseFrames(): Uint8Array[] {
  const multi: MultiOp[] = [
    { op: 'create', path: '/f/a', data: enc('x'), acl: OPEN, flags: 0 },
    { op: 'setData', path: '/f', data: enc('y'), version: -1 },
    { op: 'check', path: '/f', version: 0 },
    { op: 'delete', path: '/f/a', version: -1 },
  ];
  return [
    requestFrame(1, 1, { path: '/f/x', data: enc('d'), acl: OPEN, flags: 3 }),
    requestFrame(2, 15, { path: '/f/y', data: null, acl: OPEN, flags: 1 }),
    requestFrame(3, 19, { path: '/f/c', data: null, acl: OPEN, flags: 4 }),
    requestFrame(4, 21, { path: '/f/t', data: enc('t'), acl: OPEN, flags: 5, ttl: 1000n }),
    requestFrame(5, 2, { path: '/f/x', version: -1 }),
    requestFrame(6, 3, { path: '/f', watch: true }),
    requestFrame(7, 4, { path: '/f', watch: true }),
    requestFrame(8, 5, { path: '/f', data: enc('z'), version: -1 }),
    requestFrame(9, 6, { path: '/f' }),
    requestFrame(10, 7, { path: '/f/x', acl: OPEN, version: -1 }),
    requestFrame(11, 8, { path: '/f', watch: true }),
    requestFrame(12, 12, { path: '/f', watch: true }),
    requestFrame(13, 14, multi),
    requestFrame(14, 22, [{ op: 'getData', path: '/f', watch: false }]),
    requestFrame(15, 101, { relativeZxid: 0n, dataWatches: ['/f'], existWatches: ['/g'], childWatches: ['/f'] }),
    requestFrame(16, 106, { path: '/f', mode: 1 }),
    requestFrame(17, 17, { path: '/f', type: 3 }),
    requestFrame(18, 18, { path: '/f', type: 1 }),
    requestFrame(19, 103, { prefixPath: '/f' }),
    requestFrame(20, 104, { path: '/f' }),
    requestFrame(21, 9, { path: '/f' }),
    requestFrame(23, 11, null),
  ];
}

/** What one mutated frame did: `fatal` ones (header, handshake) end their connection. */
export interface Mutated {
  bytes: Uint8Array;
  fatal: boolean;
}

/** One hostile frame made from a random base frame. */
export function mutate(bases: readonly Uint8Array[], rand: (n: number) => number): Mutated {
  const frame = Buffer.from(bases[rand(bases.length)] as Uint8Array);
  const kind = rand(1000);
  if (kind < 300) {
    for (let k = 0; k < 1 + rand(6); k++) frame[12 + rand(Math.max(1, frame.length - 12))] = rand(256);
  } else if (kind < 500) {
    const at = 12 + rand(Math.max(1, frame.length - 16));
    if (at + 4 <= frame.length) frame.writeInt32BE([-1, -2, 0, 0x7fffffff, 0x80000000 | 0, 65536, 3, frame.length][rand(8)] as number, at);
  } else if (kind < 650) {
    const keep = 12 + rand(frame.length - 11);
    frame.writeInt32BE(keep - 4, 0);
    return { bytes: frame.subarray(0, keep), fatal: false };
  } else if (kind < 750) {
    const garbage = Buffer.alloc(12 + rand(200));
    for (let i = 4; i < garbage.length; i++) garbage[i] = rand(256);
    garbage.writeInt32BE(garbage.length - 4, 0);
    garbage.writeInt32BE(frame.readInt32BE(8), 8); // a real opcode, a random body
    return { bytes: garbage, fatal: false };
  } else if (kind < 753) {
    frame[4 + rand(8)] = rand(256); // the xid or the opcode
    return { bytes: frame, fatal: true };
  }
  return { bytes: frame, fatal: false };
}

/** A handshake, now and then mutated (then the connection may close at once). */
export function handshakeFrame(rand: (n: number) => number): Uint8Array {
  const frame = Buffer.from(connectFrame({ timeout: 4000 }));
  if (rand(20) === 0) for (let k = 0; k < 1 + rand(3); k++) frame[4 + rand(frame.length - 4)] = rand(256);
  return frame;
}
