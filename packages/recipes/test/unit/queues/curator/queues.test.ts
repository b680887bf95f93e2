// Curator's queue family without a server: the item bytes (golden, from Curator's ItemSerializer layout), the
// names of each queue kind and their order, and the consumer loop on the in-memory fake with a manual clock
// (delay), lost replies (put, claim) and the lock-safe requeue. The real server and Curator itself:
// test/integration/queues/curator/.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@zkts/testkit';
import { SessionExpiredError } from '@zkts/protocol';

import { DistributedDelayQueue, DistributedIdQueue, DistributedPriorityQueue, DistributedQueue, QueueItemCorruptError, RecipeArgumentError } from '../../../../src/index.js';
import { decodeItem, encodeItem } from '../../../../src/queues/curator/format.js';
import { delayMiddle, epochOf, idMiddle, idOf, parseItemName, plainLayout, priorityMiddle, sortItems, delayLayout, idLayout } from '../../../../src/queues/curator/names.js';
import { FakeZk } from '../../../support/fake-zk.js';

const te = new TextEncoder();
const td = new TextDecoder();
const utf8Serializer = { serialize: (s: string) => te.encode(s), deserialize: (b: Uint8Array) => td.decode(b) };
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('Curator queue item bytes', () => {
  it('matches Curator: version, then 0x01 + int32 length + bytes per message, then 0x02', () => {
    expect(hex(encodeItem([te.encode('a'), te.encode('bc')]))).toBe('00010001' + '01' + '00000001' + '61' + '01' + '00000002' + '6263' + '02');
    expect(hex(encodeItem([new Uint8Array()]))).toBe('00010001' + '01' + '00000000' + '02');
  });

  it('reads its messages back and the put marker after the end opcode', () => {
    const bytes = encodeItem([te.encode('x'), te.encode('yz')], 'marker-1');
    const decoded = decodeItem(bytes);
    expect(decoded.messages.map((m) => td.decode(m))).toEqual(['x', 'yz']);
    expect(decoded.marker).toBe('marker-1');
    expect(decodeItem(encodeItem([te.encode('x')])).marker).toBeUndefined();
  });

  it('rejects what is not Curator format with QueueItemCorruptError', () => {
    expect(() => decodeItem(te.encode('hello'))).toThrow(QueueItemCorruptError);
    expect(() => decodeItem(Uint8Array.of(0, 1, 0, 1, 1, 0, 0, 0, 9, 1))).toThrow(/truncated/);
    expect(() => decodeItem(Uint8Array.of(0, 1, 0, 1, 7))).toThrow(/opcode 7/);
    expect(() => decodeItem(Uint8Array.of(0, 1, 0, 1, 1, 0xff, 0xff, 0xff, 0xff, 2))).toThrow(/length -1/);
  });
});

describe('Curator queue names', () => {
  it('encodes priorities as Curator: sign digit, then 8 hex digits of the 32-bit value', () => {
    expect(priorityMiddle(0)).toBe('100000000');
    expect(priorityMiddle(5)).toBe('100000005');
    expect(priorityMiddle(-1)).toBe('0FFFFFFFF');
    expect(priorityMiddle(-2147483648)).toBe('080000000');
    expect(priorityMiddle(2147483647)).toBe('17FFFFFFF');
    expect(() => priorityMiddle(1.5)).toThrow(RecipeArgumentError);
    expect(() => priorityMiddle(2 ** 31)).toThrow(RecipeArgumentError);
  });

  it('orders priority items lowest first, then by sequence', () => {
    const names = [[3, 1], [-7, 2], [3, 0], [0, 3], [-2147483648, 9]].map(([p, s]) => `queue-${priorityMiddle(p!)}${String(s).padStart(10, '0')}`);
    expect(sortItems(names, plainLayout).map((i) => i.name)).toEqual([names[4], names[1], names[3], names[2], names[0]]);
  });

  it('encodes delay times in hex between bars and reads them back (0 for a name without one)', () => {
    expect(delayMiddle(0x18bf3a5c2d0)).toBe('|18BF3A5C2D0|');
    expect(delayMiddle(255)).toBe('|000000FF|');
    const item = parseItemName(`queue-${delayMiddle(1_700_000_000_000)}0000000004`)!;
    expect(epochOf(item)).toBe(1_700_000_000_000);
    expect(epochOf(parseItemName('queue-0000000004')!)).toBe(0);
    expect(delayLayout.delay(item, 1_700_000_000_000 - 50)).toBe(50);
    expect(() => delayMiddle(-1)).toThrow(RecipeArgumentError);
  });

  it('keeps ids in the name as Curator (/ and | become _) and orders id items by sequence only', () => {
    expect(idMiddle('a/b|c')).toBe('|a_b_c|');
    const z = parseItemName('queue-|zeta|0000000001')!;
    const a = parseItemName('queue-|alpha|0000000002')!;
    expect(idOf(z)).toBe('zeta');
    expect(sortItems([a.name, z.name], idLayout).map(idOf)).toEqual(['zeta', 'alpha']);
  });

  it('reads negative sequences (past 2^31) and keeps them after 2147483647; ignores foreign children', () => {
    const wrapped = parseItemName('queue--2147483648')!;
    expect(wrapped).toMatchObject({ middle: '', sequence: -2147483648 });
    expect(parseItemName('queue--1000000000')).toMatchObject({ middle: '', sequence: -1000000000 });
    expect(sortItems(['queue--2147483648', 'queue-2147483647', '_zkts-claim-x', 'lock', 'queue-abc'], plainLayout).map((i) => i.name)).toEqual([
      'queue-2147483647',
      'queue--2147483648',
    ]);
  });
});

async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
}

describe('Curator queues on the fake', () => {
  it('delivers FIFO to a consumer and removes each item before delivering it', async () => {
    const zk = new FakeZk();
    const got: string[] = [];
    const q = new DistributedQueue(zk.client(), '/q', { serializer: utf8Serializer, consumer: (m) => void got.push(m) });
    for (const m of ['a', 'b', 'c']) await q.put(m);
    await q.putMulti(['d', 'e']);
    await q.start();
    await settle();
    expect(got).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(zk.children('/q')).toEqual([]);
    expect(q.stats).toMatchObject({ delivered: 5, removed: 4 });
    await q.close();
  });

  it('a put whose reply was lost is settled by its receipt, not created twice, even when already consumed', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const q = new DistributedPriorityQueue(c, '/q', { serializer: utf8Serializer });
    await q.put('first', 1);
    c.loseReplyOf = 'multi';
    const path = await q.put('second', 1);
    await settle();
    expect(zk.children('/q')).toHaveLength(2); // the receipt is gone too
    expect(zk.children('/q')).toContain(path.slice('/q/'.length));
    // A consumer takes the item before the producer looks: the receipt still names it.
    const other = zk.client();
    c.loseReplyOf = 'multi';
    const consumer = c.getChildren; // the producer's next listing is the settle step: take the item first
    c.getChildren = async (p, o) => {
      c.getChildren = consumer;
      for (const n of zk.children('/q').filter((x) => x.startsWith('queue-1000000070'))) await other.delete(`/q/${n}`);
      return consumer.call(c, p, o);
    };
    const third = await q.put('third', 7);
    expect(third).toMatch(/\/q\/queue-1000000070\d{9}$/);
    await settle();
    expect(zk.children('/q')).toHaveLength(2); // not put again
  });

  it('a claim whose reply was lost is settled by its receipt: delivered once, no receipt left', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const got: string[] = [];
    const q = new DistributedQueue(c, '/q', { serializer: utf8Serializer, consumer: (m) => void got.push(m) });
    await q.put('only');
    c.loseReplyOf = 'multi';
    await q.start();
    await settle();
    expect(got).toEqual(['only']);
    expect(zk.children('/q')).toEqual([]);
    await q.close();
  });

  it('a put and a claim whose session expired with the reply outstanding are settled in the next session', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const multi = c.multi.bind(c);
    let expireNext = true;
    c.multi = async (ops) => {
      const results = await multi(ops);
      if (!expireNext) return results;
      expireNext = false; // applied, then the session ends before the reply: receipt of an ephemeral kind gone too
      zk.expire(c.sessionId, { renew: true });
      throw new SessionExpiredError();
    };
    const got: string[] = [];
    const q = new DistributedQueue(c, '/q', { serializer: utf8Serializer, consumer: (m) => void got.push(m) });
    const path = await q.put('once');
    expect(zk.children('/q')).toEqual([path.slice(3)]); // found by the uuid in its data, not put again
    expireNext = true;
    await q.start();
    await settle();
    expect(got).toEqual(['once']); // the claim's persistent receipt said it was ours
    expect(zk.children('/q')).toEqual([]);
    await q.close();
  });

  it('does not deliver a delay item before its time (injected clock)', async () => {
    const zk = new FakeZk();
    const clock = new ManualClock(1_000_000);
    const got: string[] = [];
    const q = new DistributedDelayQueue(zk.client(), '/q', { serializer: utf8Serializer, clock, consumer: (m) => void got.push(m) });
    await q.put('late', 1_000_500);
    await q.put('early', 1_000_200);
    await q.put('now', 1_000_000);
    await q.start();
    await settle();
    expect(got).toEqual(['now']);
    clock.advance(199);
    await settle();
    expect(got).toEqual(['now']);
    clock.advance(1);
    await settle();
    expect(got).toEqual(['now', 'early']);
    clock.advance(300);
    await settle();
    expect(got).toEqual(['now', 'early', 'late']);
    await q.close();
  });

  it('lock-safe: a failing consumer has its item requeued at the back; errorMode delete removes it', async () => {
    const zk = new FakeZk();
    const errors: Error[] = [];
    let fails = 1;
    const got: string[] = [];
    const q = new DistributedIdQueue(zk.client(), '/q', {
      serializer: utf8Serializer, lockPath: '/locks', onError: (e) => errors.push(e),
      consumer: (m) => {
        if (m === 'x' && fails-- > 0) throw new Error('boom');
        got.push(m);
      },
    });
    await q.put('x', 'id-x');
    await q.put('y', 'id-y');
    await q.start();
    await settle();
    expect(got).toEqual(['y', 'x']);
    expect(q.stats).toMatchObject({ requeued: 1, removed: 2 });
    expect(errors.map((e) => (e.cause as Error).message)).toEqual(['boom']);
    expect(zk.children('/q')).toEqual([]);
    expect(zk.children('/locks')).toEqual([]);
    await q.close();
  });

  it('iterating: a message is finished when the next is asked for; leaving the loop gives it back (lock-safe)', async () => {
    const zk = new FakeZk();
    const q = new DistributedQueue(zk.client(), '/q', { serializer: utf8Serializer, lockPath: '/locks' });
    for (const m of ['a', 'b', 'c']) await q.put(m);
    const seen: string[] = [];
    for await (const m of q.messages()) {
      seen.push(m);
      if (m === 'b') break;
    }
    expect(seen).toEqual(['a', 'b']);
    expect(zk.children('/q')).toHaveLength(2); // b given back, c untouched
    expect(zk.children('/locks')).toEqual([]);
    const again = new DistributedQueue(zk.client(), '/q', { serializer: utf8Serializer, lockPath: '/locks' });
    const it2 = again.messages();
    expect((await it2.next()).value).toBe('b');
    await it2.return!();
  });

  it('lock-safe: a lost reply of the lock create or of the removal is settled; each item delivered and removed once', async () => {
    for (const lost of ['create', 'multi']) {
      const zk = new FakeZk();
      const c = zk.client();
      const got: string[] = [];
      await new DistributedQueue(zk.client(), '/q', { serializer: utf8Serializer }).put('x');
      await c.create('/locks', null); // so the first create the consumer makes is the item's lock
      const q = new DistributedQueue(c, '/q', { serializer: utf8Serializer, lockPath: '/locks', consumer: (m) => void got.push(m) });
      c.loseReplyOf = lost;
      await q.start();
      await settle();
      expect(c.loseReplyOf).toBeUndefined(); // the reply was lost
      expect(got).toEqual(['x']);
      expect(q.stats).toMatchObject({ removed: 1, lost: 0 });
      expect(zk.children('/q')).toEqual([]);
      expect(zk.children('/locks')).toEqual([]);
      await q.close();
    }
  });

  it('priority: an urgent item put while the consumer works goes before the rest of the listing', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const got: string[] = [];
    const producer = new DistributedPriorityQueue(c, '/q', { serializer: utf8Serializer });
    for (const m of ['a', 'b', 'c']) await producer.put(m, 5);
    const q = new DistributedPriorityQueue(zk.client(), '/q', { serializer: utf8Serializer, consumer: async (m) => {
      got.push(m);
      if (m === 'a') await producer.put('urgent', -10);
    } });
    await q.start();
    await settle();
    expect(got).toEqual(['a', 'urgent', 'b', 'c']);
    await q.close();
  });

  it('iterating without lockPath: leaving the loop puts the message in hand (and the rest of its item) back', async () => {
    const zk = new FakeZk();
    const q = new DistributedQueue(zk.client(), '/q', { serializer: utf8Serializer });
    await q.putMulti(['a', 'b', 'c']);
    for await (const m of q.messages()) {
      expect(m).toBe('a');
      break;
    }
    const again: string[] = [];
    for await (const m of q.messages()) { // the same instance can iterate again
      again.push(m);
      if (again.length === 3) break;
    }
    expect(again).toEqual(['a', 'b', 'c']);
    expect(q.stats.removed).toBe(2);
  });

  it('close() ends an iterator waiting for a message', async () => {
    const zk = new FakeZk();
    const q = new DistributedQueue(zk.client(), '/q', { serializer: utf8Serializer });
    const it = q.messages();
    const next = it.next();
    await settle();
    await q.close();
    await expect(next).resolves.toEqual({ value: undefined, done: true });
  });

  it('remove(id) takes out the items with that id', async () => {
    const zk = new FakeZk();
    const q = new DistributedIdQueue(zk.client(), '/q', { serializer: utf8Serializer });
    await q.put('1', 'a/1');
    await q.put('2', 'b');
    await q.put('3', 'a/1');
    expect(await q.has('a/1')).toBe(true);
    expect(await q.remove('a/1')).toBe(2);
    expect(await q.has('a/1')).toBe(false);
    expect(await q.size()).toBe(1);
    await expect(q.remove('')).rejects.toThrow(RecipeArgumentError);
  });

  it('reports a corrupt item and removes it; rejects bad options', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    await c.create('/q', null);
    await c.create('/q/queue-', 'not curator', { mode: 'persistent-sequential' });
    const errors: Error[] = [];
    const q = new DistributedQueue(c, '/q', { consumer: () => undefined, onError: (e) => errors.push(e) });
    await q.start();
    await settle();
    expect(errors[0]).toBeInstanceOf(QueueItemCorruptError);
    expect(zk.children('/q')).toEqual([]);
    await q.close();
    expect(() => new DistributedQueue(c, '/q', { maxItems: 0 })).toThrow(RecipeArgumentError);
    expect(() => new DistributedQueue(c, '/q', { errorMode: 'delete' })).toThrow(RecipeArgumentError);
  });
});
