// kazoo's NonBlockingLease and MultiNonBlockingLease: the lease node's format byte for byte (expected strings are
// what kazoo 2.8 and Python's json / datetime produce) and the logic on the in-memory ZooKeeper, with a manual
// clock for the lease times.
import { describe, expect, it } from 'vitest';

import { ManualClock } from '@zkts/testkit';

import { MultiNonBlockingLease, NonBlockingLease } from '../../../src/index.js';
import { decodeLease, encodeLease, formatEnd, parseEnd } from '../../../src/leases/holder-format.js';
import { FakeZk } from '../../support/fake-zk.js';

const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const utc = (...p: [number, number, number, number, number, number, number?]): number => Date.UTC(p[0], p[1] - 1, p[2], p[3], p[4], p[5], p[6] ?? 0);

describe('kazoo lease data', () => {
  it('writes json.dumps({"version", "holder", "end"}) with ensure_ascii, the end truncated to the second', () => {
    expect(formatEnd(utc(2026, 1, 2, 3, 4, 5, 999))).toBe('2026-01-02T03:04:05');
    expect(text(encodeLease('host-a', utc(2026, 11, 23, 13, 46, 47)))).toBe('{"version": 1, "holder": "host-a", "end": "2026-11-23T13:46:47"}');
    // Python: json.dumps({"version": 1, "holder": "h\u00e9\x7f\n\"\\ \U0001F600\x01", "end": ...})
    expect(text(encodeLease('h\u00e9\x7f\n"\\ \u{1F600}\x01', utc(2026, 1, 2, 3, 4, 5)))).toBe(
      '{"version": 1, "holder": "h\\u00e9\\u007f\\n\\"\\\\ \\ud83d\\ude00\\u0001", "end": "2026-01-02T03:04:05"}',
    );
  });

  it('reads the end as strptime does: unpadded fields yes, impossible dates no', () => {
    expect(parseEnd('2026-01-02T03:04:05')).toBe(utc(2026, 1, 2, 3, 4, 5));
    expect(parseEnd('2026-1-2T3:4:5')).toBe(utc(2026, 1, 2, 3, 4, 5));
    for (const bad of ['2026-02-31T00:00:00', '2026-01-02T24:00:00', '2026-01-02T03:04:60', '2026-01-02 03:04:05', '2026-01-02T03:04:05Z', '26-01-02T03:04:05']) {
      expect(parseEnd(bad)).toBeUndefined();
    }
  });

  it('decodes kazoo nodes; another version is reported, not read; junk is a DataFormatError', () => {
    const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
    expect(decodeLease(encodeLease('\u00e9', utc(2026, 1, 2, 3, 4, 5)), '/l')).toEqual({ kind: 'current', holder: '\u00e9', endMs: utc(2026, 1, 2, 3, 4, 5) });
    expect(decodeLease(enc('{"version": 2}'), '/l')).toEqual({ kind: 'other-version', version: 2 });
    for (const bad of ['nope', '[1]', '{"holder": "x"}', '{"version": 1, "holder": 3, "end": "2026-01-02T03:04:05"}', '{"version": 1, "holder": "x", "end": "soon"}']) {
      expect(() => decodeLease(enc(bad), '/l')).toThrow(expect.objectContaining({ code: 'DATA_FORMAT' }));
    }
  });
});

describe('NonBlockingLease (in-memory ZooKeeper, manual clock)', () => {
  it('held until the end second, renewed by the same holder, then taken by another', async () => {
    const zk = new FakeZk();
    const clock = new ManualClock(utc(2026, 1, 1, 0, 0, 0, 400));
    const a = new NonBlockingLease(zk.client(), '/lease', { duration: 10_000, identifier: 'a', clock });
    const b = new NonBlockingLease(zk.client(), '/lease', { duration: 10_000, identifier: 'b', clock });
    expect(await a.tryAcquire()).toEqual({ path: '/lease', holder: 'a', expiresAt: new Date(utc(2026, 1, 1, 0, 0, 10)) });
    expect(zk.children('/lease')).toEqual(['lease_holder']);
    clock.advance(9_599); // 00:00:09.999: still before the end
    expect(await b.tryAcquire()).toBeNull();
    clock.advance(1); // 00:00:10.000: kazoo's now < end no longer holds
    expect(await b.tryAcquire()).toMatchObject({ holder: 'b', expiresAt: new Date(utc(2026, 1, 1, 0, 0, 20)) });
    expect(await a.tryAcquire()).toBeNull();
    clock.advance(5_000);
    expect(await b.tryAcquire()).toMatchObject({ holder: 'b', expiresAt: new Date(utc(2026, 1, 1, 0, 0, 25)) });
    expect(await a.current()).toMatchObject({ holder: 'b', expiresAt: new Date(utc(2026, 1, 1, 0, 0, 25)) });
  });

  it('rejects a bad duration or identifier before touching ZooKeeper', () => {
    const c = new FakeZk().client();
    expect(() => new NonBlockingLease(c, '/l', { duration: 0, identifier: 'a' })).toThrow(expect.objectContaining({ code: 'INVALID_USE' }));
    expect(() => new NonBlockingLease(c, '/l', { duration: 1000, identifier: '' })).toThrow(expect.objectContaining({ code: 'INVALID_USE' }));
    expect(() => new MultiNonBlockingLease(c, '/l', 0, { duration: 1000, identifier: 'a' })).toThrow(expect.objectContaining({ code: 'INVALID_USE' }));
    expect(c.calls).toEqual([]);
  });

  it('a lease write whose reply was lost is read back as ours and renewed, not doubled', async () => {
    const zk = new FakeZk();
    const clock = new ManualClock(utc(2026, 1, 1, 0, 0, 0));
    const c = zk.client();
    const a = new NonBlockingLease(c, '/lease', { duration: 10_000, identifier: 'a', clock });
    c.loseReplyOf = 'multi';
    expect(await a.tryAcquire()).toMatchObject({ holder: 'a' });
    expect(await new NonBlockingLease(zk.client(), '/lease', { duration: 10_000, identifier: 'b', clock }).tryAcquire()).toBeNull();
  });
});

describe('MultiNonBlockingLease (in-memory ZooKeeper, manual clock)', () => {
  it('at most count holders; slots in kazoo order; a holder renews in its own slot', async () => {
    const zk = new FakeZk();
    const clock = new ManualClock(utc(2026, 1, 1, 0, 0, 0));
    const lease = (id: string): MultiNonBlockingLease => new MultiNonBlockingLease(zk.client(), '/m', 2, { duration: 10_000, identifier: id, clock });
    expect(await lease('a').tryAcquire()).toMatchObject({ slot: 0, path: '/m/0' });
    expect(await lease('b').tryAcquire()).toMatchObject({ slot: 1, path: '/m/1' });
    expect(await lease('c').tryAcquire()).toBeNull();
    clock.advance(5_000);
    expect(await lease('b').tryAcquire()).toMatchObject({ slot: 1 }); // renewed until 00:00:15
    expect(await lease('c').tryAcquire()).toBeNull();
    clock.advance(5_000); // a's term is over
    expect(await lease('c').tryAcquire()).toMatchObject({ slot: 0 });
    // b holds slot 1 and slot 0 is taken: renews in 1. Had slot 0 been free, kazoo's order would take it too.
    expect(await lease('b').tryAcquire()).toMatchObject({ slot: 1 });
    expect((await lease('x').holders()).map((t) => [t.slot, t.holder])).toEqual([[0, 'c'], [1, 'b']]);
  });
});
