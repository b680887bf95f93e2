// kazoo's LockingQueue: its entry names as kazoo writes them, and lost replies and ended sessions on the
// in-memory ZooKeeper.
import { describe, expect, it } from 'vitest';

import { LockingQueue } from '../../../src/index.js';
import { availableEntries, entryPrefix, parseEntry } from '../../../src/queues/entry-names.js';
import { FakeZk } from '../../support/fake-zk.js';

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe('kazoo queue entry names', () => {
  it('entry-<ppp>-: priorities 0…999 as kazoo checks them', () => {
    expect(entryPrefix(100)).toBe('entry-100-');
    expect(entryPrefix(7)).toBe('entry-007-');
    for (const bad of [-1, 1000, 1.5, Number.NaN]) expect(() => entryPrefix(bad)).toThrow(/priority/);
  });

  it('orders by priority, then sequence (wrap-safe), skipping taken and foreign children', () => {
    expect(parseEntry('entry-005-0000000012')).toEqual({ name: 'entry-005-0000000012', priority: 5, sequence: 12 });
    expect(parseEntry('entry-05-0000000012')).toBeUndefined();
    expect(parseEntry('_zkts-put-x')).toBeUndefined();
    const names = ['entry-100-0000000003', 'entry-100-2147483647', 'entry-100--2147483648', 'entry-001-0000000009', 'entry-100-0000000001', 'junk'];
    expect(availableEntries(names, new Set(['entry-100-0000000003'])).map((e) => e.name)).toEqual([
      'entry-001-0000000009', 'entry-100-0000000001', 'entry-100-2147483647', 'entry-100--2147483648',
    ]);
  });
});

describe('LockingQueue (in-memory ZooKeeper)', () => {
  it('lost replies of put, lock and consume: each takes effect once', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const q = new LockingQueue(c, '/q');
    await q.put('a');
    c.loseReplyOf = 'multi';
    await q.put('b');
    expect(await q.size()).toBe(2);
    c.loseReplyOf = 'multi';
    const entry = (await q.poll())!;
    expect(text(entry.data)).toBe('a');
    expect(text(zk.nodes.get(`/q/taken/${entry.name}`)!.data)).toBe(q.id);
    c.loseReplyOf = 'multi';
    expect(await q.consume()).toBe(true);
    expect(await q.consume()).toBe(false);
    expect(await q.size()).toBe(1);
    expect(zk.children('/q/taken')).toEqual([]);
  });

  it('an entry whose consumer’s session ended comes back; the old consumer can no longer consume it', async () => {
    const zk = new FakeZk();
    const c1 = zk.client();
    const q1 = new LockingQueue(c1, '/q');
    await q1.put('x');
    await q1.poll();
    const q2 = new LockingQueue(zk.client(), '/q');
    expect(await q2.poll()).toBeNull();
    zk.expire(c1.sessionId, { renew: true });
    expect(text((await q2.poll())!.data)).toBe('x');
    expect(await q1.holdsLock()).toBe(false);
    expect(await q1.consume()).toBe(false);
    expect(await q2.consume()).toBe(true);
    expect(await q2.size()).toBe(0);
  });
});
