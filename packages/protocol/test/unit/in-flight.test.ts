// The FIFO of requests on the wire: replies must match the oldest request's xid, in order, however the ring
// grows and wraps; a seeded run checks it against a plain array (the seed is printed; ZKTS_SEED=<seed> replays it).
import { describe, expect, it } from 'vitest';

import { ProtocolError } from '../../src/errors/errors.js';
import { InFlight } from '../../src/client/session/in-flight.js';
import type { RequestEntry } from '../../src/client/request.js';
import { prng } from '../support/recorded-session.js';

function entry(xid: number): RequestEntry {
  return { op: 4, path: undefined, phase: 'sent', xid, trace: null, write: () => undefined, reply: () => undefined, fail: () => undefined };
}
const header = (xid: number) => ({ xid, zxid: 0n, err: 0 });

describe('InFlight', () => {
  it('gives entries back oldest first through growth and wrap-around, as a plain array would', () => {
    const seed = process.env['ZKTS_SEED'] === undefined ? Date.now() >>> 0 : Number(process.env['ZKTS_SEED']);
    console.info(`in-flight ring: seed ${seed} (replay: ZKTS_SEED=${seed})`);
    const random = prng(seed);
    const fifo = new InFlight();
    const model: number[] = [];
    let next = 1;
    for (let step = 0; step < 3_000; step++) {
      // Bursts of pushes then of takes, so the ring fills, wraps and grows at every phase.
      const pushes = Math.floor(random() * 40);
      for (let i = 0; i < pushes; i++) {
        fifo.push(entry(next));
        model.push(next++);
      }
      const takes = Math.min(model.length, Math.floor(random() * 40));
      for (let i = 0; i < takes; i++) expect(fifo.take(header(model[0]!)).xid).toBe(model.shift());
      expect(fifo.size).toBe(model.length);
    }
    expect(fifo.drain().map((e) => e.xid)).toEqual(model);
    expect(fifo.size).toBe(0);
  });

  it('refuses a reply with no request pending, or for another xid, and keeps the oldest in place', () => {
    const fifo = new InFlight();
    expect(() => fifo.take(header(1))).toThrow(ProtocolError);
    fifo.push(entry(7));
    fifo.push(entry(8));
    expect(() => fifo.take(header(8))).toThrow(/xid out of order: expected 7, got 8/);
    expect(fifo.take(header(7)).xid).toBe(7);
    expect(fifo.take(header(8)).xid).toBe(8);
    expect(() => fifo.take(header(9))).toThrow(/no request is pending/);
  });

  it('drains in order after the ring has wrapped, and starts empty again', () => {
    const fifo = new InFlight();
    for (let xid = 1; xid <= 4; xid++) fifo.push(entry(xid));
    fifo.take(header(1));
    fifo.take(header(2));
    for (let xid = 5; xid <= 6; xid++) fifo.push(entry(xid)); // lands at the front of the 4-slot ring
    expect(fifo.drain().map((e) => e.xid)).toEqual([3, 4, 5, 6]);
    expect(fifo.drain()).toEqual([]);
    fifo.push(entry(10));
    expect(fifo.take(header(10)).xid).toBe(10);
  });
});
