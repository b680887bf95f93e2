// ReadWriteLock on the in-memory ZooKeeper: downgrade keeps its place, upgrade is rejected.
import { describe, expect, it } from 'vitest';

import { LockUpgradeError, ReadWriteLock } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

describe('ReadWriteLock (in-memory ZooKeeper)', () => {
  it('downgrade creates a read node with the write node sequence; upgrade is rejected', async () => {
    const zk = new FakeZk();
    const rw = new ReadWriteLock(zk.client(), '/rw');
    const w = await rw.writeLock.acquire();
    const r = await rw.readLock.acquire();
    expect(r.node).toMatch(/__READ__0000000000$/);
    expect(w.node).toMatch(/__WRIT__0000000000$/);
    expect(zk.nodes.get(r.node)?.stat.ephemeralOwner).not.toBe(0n);
    await w.release();
    await expect(rw.writeLock.acquire()).rejects.toBeInstanceOf(LockUpgradeError);
    await r.release();
    expect(zk.children('/rw')).toEqual([]);
  });

  it('a writer waiting behind a downgraded holder is granted only when the read side goes', async () => {
    const zk = new FakeZk();
    const a = new ReadWriteLock(zk.client(), '/rw');
    const w = await a.writeLock.acquire();
    let granted = false;
    const bP = new ReadWriteLock(zk.client(), '/rw').writeLock.acquire().then((l) => {
      granted = true;
      return l;
    });
    await tick();
    const r = await a.readLock.acquire();
    await w.release();
    await tick();
    expect(granted).toBe(false);
    await r.release();
    await (await bP).release();
  });
});
