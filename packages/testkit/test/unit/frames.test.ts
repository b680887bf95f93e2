// FrameCutter: ZooKeeper's length-prefixed frames cut out of a byte stream however it arrives, and the xid
// read from a frame (what the fault proxy needs to tell replies from notifications and pings).
import { describe, expect, it } from 'vitest';

import { FrameCutter } from '../../src/index.js';
import { frameXid } from '../../src/frames.js';

function frame(payload: number[]): Buffer {
  const b = Buffer.alloc(4 + payload.length);
  b.writeInt32BE(payload.length);
  Buffer.from(payload).copy(b, 4);
  return b;
}

describe('FrameCutter', () => {
  it('returns whole frames with their prefix, across arbitrary chunking', () => {
    const stream = Buffer.concat([frame([1, 2, 3]), frame([]), frame([9, 9, 9, 9, 9, 9, 9, 9])]);
    for (let split = 0; split <= stream.length; split++) {
      const cutter = new FrameCutter();
      const got = [...cutter.push(stream.subarray(0, split)), ...cutter.push(stream.subarray(split))];
      expect(got.map((f) => [...f])).toEqual([[0, 0, 0, 3, 1, 2, 3], [0, 0, 0, 0], [0, 0, 0, 8, 9, 9, 9, 9, 9, 9, 9, 9]]);
      expect(cutter.pendingBytes).toBe(0);
    }
  });

  it('exposes the declared length so a proxy can spot a four-letter word', () => {
    const cutter = new FrameCutter();
    expect(cutter.push(Buffer.from('srvr'))).toEqual([]);
    expect(cutter.peekLength()).toBe(0x73727672);
    expect(cutter.drain().toString()).toBe('srvr');
  });

  it('reads the xid after the length', () => {
    expect(frameXid(frame([0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 11]))).toBe(-2);
    expect(frameXid(frame([1]))).toBeUndefined();
  });
});
