// Every kind of lock on ONE path follows one rule, on the in-memory ZooKeeper: Mutex and the read
// side exclude each other, a downgrade cannot let a waiting Mutex in, and a mixed queue still wakes each waiter
// exactly once when holders leave in queue order.
import { describe, expect, it } from 'vitest';

import { Mutex, ReadWriteLock, type LockHandle } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

function flag(p: Promise<unknown>): { done: boolean } {
  const f = { done: false };
  void p.then(() => (f.done = true));
  return f;
}

describe('one path, every kind (in-memory ZooKeeper)', () => {
  it('a Mutex waits for a reader and a reader waits for a Mutex (no exclusive and shared holder overlap)', async () => {
    const zk = new FakeZk();
    const reader = await new ReadWriteLock(zk.client(), '/p').readLock.acquire();
    const mutex = new Mutex(zk.client(), '/p');
    expect(await mutex.tryAcquire()).toBeNull();
    const m = mutex.acquire();
    const mGranted = flag(m);
    await tick();
    expect(mGranted.done).toBe(false);
    // A reader arriving now queues behind the waiting Mutex (a writer), as behind any writer.
    const late = new ReadWriteLock(zk.client(), '/p').readLock.acquire();
    const lateGranted = flag(late);
    await tick();
    expect(lateGranted.done).toBe(false);
    await reader.release();
    const held = await m;
    await tick();
    expect(lateGranted.done).toBe(false);
    expect((await mutex.holders()).map((h) => h.node)).toEqual([held.node]);
    await held.release();
    await (await late).release();
    expect(zk.children('/p')).toEqual([]);
  });

  it('a Mutex second in line behind a downgrading writer is not let in when the write node goes', async () => {
    const zk = new FakeZk();
    const rw = new ReadWriteLock(zk.client(), '/p');
    const w = await rw.writeLock.acquire();
    const mutex = new Mutex(zk.client(), '/p');
    const m = mutex.acquire();
    const mGranted = flag(m);
    await tick();
    const r = await rw.readLock.acquire(); // downgrade: a read node with the write node's sequence
    await w.release();
    await tick();
    expect(mGranted.done).toBe(false); // the read node still stands ahead of it
    expect(mutex.stats.wakeups).toBe(1);
    await r.release();
    await (await m).release();
  });

  it('a mixed queue: holders leaving in queue order wake each waiter exactly once', async () => {
    const zk = new FakeZk();
    const pattern = 'WRRMRWRRRMMRWRRR'; // W: ReadWriteLock writer, M: Mutex, R: reader
    const head = await new Mutex(zk.client(), '/p').acquire();
    const locks = [...pattern].map((k) => {
      const c = zk.client();
      return k === 'M' ? new Mutex(c, '/p') : k === 'W' ? new ReadWriteLock(c, '/p').writeLock : new ReadWriteLock(c, '/p').readLock;
    });
    const leases: LockHandle[] = [];
    const grants: number[] = [];
    const waits = locks.map(async (l, i) => {
      leases[i] = await l.acquire({ timeout: 5000 });
      grants.push(i);
    });
    await tick();
    expect(locks.every((l) => l.stats.watches === 1)).toBe(true);
    await head.release();
    // Release in queue order: each holder leaves once everyone ahead of it has left.
    for (let i = 0; i < locks.length; i++) {
      while (leases[i] === undefined) await tick();
      await (leases[i] as LockHandle).release();
    }
    await Promise.all(waits);
    expect(grants.sort((a, b) => a - b)).toEqual(locks.map((_, i) => i));
    expect(locks.map((l) => l.stats.wakeups)).toEqual(locks.map(() => 1));
  });
});
