// ExclusiveLock on the in-memory ZooKeeper: a lost create reply is adopted only when the node is this instance's.
import { describe, expect, it } from 'vitest';

import { ExclusiveLock } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

describe('ExclusiveLock (in-memory ZooKeeper)', () => {
  it('a lost create reply is recognised by its token and adopted', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    zk.create('/x', null, 'persistent', 0n);
    c.loseReplyOf = 'create';
    const lock = new ExclusiveLock(c, '/x', { id: 'me' });
    const lease = await lock.acquire();
    expect(lease.node).toBe('/x/lock');
    expect((await lock.owner())?.id).toBe('me');
  });

  it("another instance's node in the same session is not adopted", async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const first = await new ExclusiveLock(c, '/x', { id: 'one' }).acquire();
    expect(await new ExclusiveLock(c, '/x', { id: 'two' }).tryAcquire()).toBeNull();
    await first.release();
  });
});
