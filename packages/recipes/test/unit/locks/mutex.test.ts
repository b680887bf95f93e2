import { describe, expect, it } from 'vitest';

import { ConnectionLossError } from '@zkts/protocol';
import { ManualClock } from '@zkts/testkit';

import { settleCleanups } from '../../../src/internal/cleanup.js';
import { LockBusyError, LockNotHeldError, Mutex } from '../../../src/index.js';
import { setTestHooks } from '../../../src/internal/test-hooks.js';
import { FakeZk } from '../../support/fake-zk.js';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

describe('Mutex (in-memory ZooKeeper)', () => {
  it('uncontended acquire: create and getChildren issued together, nothing else', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    await new Mutex(c, '/').acquire(); // root exists: no parent creation
    expect(c.calls).toEqual(['create', 'getChildren']);
  });

  it('creates missing parents as containers, then contends', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const lease = await new Mutex(c, '/a/b/lock').acquire();
    expect(lease.node).toMatch(/^\/a\/b\/lock\/_c_[0-9a-f-]{36}-lock-0000000000$/);
    expect(zk.nodes.get('/a/b/lock')?.stat.ephemeralOwner).toBe(0n);
  });

  it('grants in creation order and each waiter watches only its predecessor', async () => {
    const zk = new FakeZk();
    const mutexes = [0, 1, 2, 3].map(() => new Mutex(zk.client(), '/l'));
    const first = await (mutexes[0] as Mutex).acquire();
    const order: number[] = [];
    const waits = mutexes.slice(1).map((m, i) =>
      m.acquire().then(async (l) => {
        order.push(i + 1);
        await tick();
        await l.release();
      }),
    );
    await tick();
    expect(mutexes.slice(1).map((m) => m.stats.watches)).toEqual([1, 1, 1]);
    await first.release();
    await Promise.all(waits);
    expect(order).toEqual([1, 2, 3]);
    // One wakeup per waiter: nobody woke for a release that was not its predecessor's.
    expect(mutexes.slice(1).map((m) => m.stats.wakeups)).toEqual([1, 1, 1]);
    expect(zk.children('/l')).toEqual([]);
  });

  it('a handoff from the head to the second in line costs no extra listing', async () => {
    const zk = new FakeZk();
    const head = await new Mutex(zk.client(), '/l').acquire();
    const c2 = zk.client();
    const second = new Mutex(c2, '/l');
    const p = second.acquire();
    await tick();
    c2.calls.length = 0;
    await head.release();
    await p;
    expect(c2.calls).toEqual([]); // woken by the deletion event, granted without a request
    expect(second.stats.listings).toBe(1);
  });

  it('no lost wakeup: the predecessor deleted between getChildren and the watch call', async () => {
    const zk = new FakeZk();
    const holder = new Mutex(zk.client(), '/l');
    const held = await holder.acquire();
    let injected = false;
    const waiter = setTestHooks(new Mutex(zk.client(), '/l'), {
      afterGetChildren: async ({ watch }) => {
        if (injected) return;
        injected = true;
        expect(`/l/${watch}`).toBe(held.node);
        await held.release();
      },
    });
    const lease = await waiter.acquire({ timeout: 1000 });
    expect(injected).toBe(true);
    expect(zk.children('/l')).toEqual([lease.node.slice(3)]);
  });

  it('no lost wakeup: the predecessor deleted between the watch call and the wait', async () => {
    const zk = new FakeZk();
    const held = await new Mutex(zk.client(), '/l').acquire();
    const c = zk.client();
    const getData = c.getData.bind(c);
    // The deletion lands after the watch is set but before the waiter awaits it.
    c.getData = async (path, options) => {
      const r = await getData(path, options);
      if (options?.watch === true && path === held.node) zk.delete(path);
      return r;
    };
    const lease = await new Mutex(c, '/l').acquire({ timeout: 1000 });
    expect(zk.children('/l')).toEqual([lease.node.slice(3)]);
  });

  it('a timed-out waiter removes its node and the others keep their order', async () => {
    const zk = new FakeZk();
    const clock = new ManualClock();
    const a = await new Mutex(zk.client(), '/l').acquire();
    const b = new Mutex(zk.client(), '/l', { clock });
    const c = new Mutex(zk.client(), '/l');
    const bP = b.acquire({ timeout: 30 });
    await tick();
    const cP = c.acquire();
    await tick();
    clock.advance(30);
    await expect(bP).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(zk.children('/l')).toHaveLength(2);
    await a.release();
    const cl = await cP;
    expect(c.isHeld).toBe(true);
    await cl.release();
    expect(zk.children('/l')).toEqual([]);
  });

  it('an aborted waiter removes its node (cleanup does not use the aborted signal)', async () => {
    const zk = new FakeZk();
    await new Mutex(zk.client(), '/l').acquire();
    const ac = new AbortController();
    const c = zk.client();
    const p = new Mutex(c, '/l').acquire({ signal: ac.signal });
    await tick();
    expect(zk.children('/l')).toHaveLength(2);
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    await settleCleanups(c);
    expect(zk.children('/l')).toHaveLength(1);
  });

  it('lost create reply: the node is found by its prefix and adopted, never duplicated', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    zk.create('/l', null, 'persistent', 0n);
    c.loseReplyOf = 'create';
    const lease = await new Mutex(c, '/l').acquire();
    expect(zk.children('/l')).toEqual([lease.node.slice(3)]);
  });

  it('lost create reply with the node owned by another session: deleted and redone', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    zk.create('/l', null, 'persistent', 0n);
    c.loseReplyOf = 'create';
    // The found node looks like it belongs to an older session (a follower listing a dying ephemeral).
    const realCreate = zk.create.bind(zk);
    let creates = 0;
    zk.create = (path, data, mode, session) => realCreate(path, data, mode, creates++ === 0 ? 999n : session);
    const lease = await new Mutex(c, '/l').acquire();
    await settleCleanups(c);
    expect(zk.children('/l')).toEqual([lease.node.slice(3)]);
    expect(zk.nodes.get(lease.node)?.stat.ephemeralOwner).toBe(c.sessionId);
  });

  it('a create given up for lost that lands later (same uuid) is removed, not left in the queue', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    zk.create('/l', null, 'persistent', 0n);
    // The first create "does not arrive" before the recovery looks (reply lost, node not there yet) ...
    const realCreate = c.create.bind(c);
    let first = true;
    let late: Promise<unknown> | undefined;
    c.create = (path, data, options) => {
      if (first) {
        first = false;
        late = new Promise((r) => setTimeout(r, 20)).then(() => realCreate(path, data, options)); // ... and lands later
        return Promise.reject(new ConnectionLossError('reply lost', true));
      }
      return realCreate(path, data, options);
    };
    const blocker = await new Mutex(zk.client(), '/l').acquire();
    const p = new Mutex(c, '/l').acquire();
    await late;
    await blocker.release();
    const lease = await p;
    await settleCleanups(c);
    expect(zk.children('/l')).toEqual([lease.node.slice(3)]);
  });

  it('tryAcquire returns null without leaving a node', async () => {
    const zk = new FakeZk();
    await new Mutex(zk.client(), '/l').acquire();
    expect(await new Mutex(zk.client(), '/l').tryAcquire()).toBeNull();
    expect(zk.children('/l')).toHaveLength(1);
  });

  it('reentrant: counts balance; non-reentrant: LockBusyError; over-release: LockNotHeldError', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const r = new Mutex(c, '/r', { reentrant: true });
    const l1 = await r.acquire();
    const l2 = await r.acquire();
    expect(r.holdCount).toBe(2);
    expect(l2.node).toBe(l1.node);
    await l2.release();
    expect(zk.children('/r')).toHaveLength(1);
    await l1.release();
    expect(zk.children('/r')).toHaveLength(0);
    await expect(r.release()).rejects.toBeInstanceOf(LockNotHeldError);

    const n = new Mutex(c, '/n');
    await n.acquire();
    await expect(n.acquire()).rejects.toBeInstanceOf(LockBusyError);
    // Two instances on one client never share ownership.
    const other = new Mutex(c, '/n');
    expect(await other.tryAcquire()).toBeNull();
    await n.release();
    expect(await other.tryAcquire()).not.toBeNull();
  });

  it('an acquire during a release waits until our old node is gone; a second concurrent acquire is busy', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const m = new Mutex(c, '/l');
    const first = await m.acquire();
    const realDelete = c.delete.bind(c);
    let finish: (() => void) | undefined;
    c.delete = (path) => new Promise<void>((resolve, reject) => (finish = () => realDelete(path).then(resolve, reject)));
    const releasing = first.release();
    const again = m.acquire();
    await expect(m.acquire()).rejects.toBeInstanceOf(LockBusyError);
    await tick();
    expect(zk.children('/l')).toEqual([first.node.slice(3)]); // no second node while the first is being deleted
    finish?.();
    await releasing;
    const second = await again;
    expect(zk.children('/l')).toEqual([second.node.slice(3)]);
    expect(m.holdCount).toBe(1);
  });

  it('session expiry while holding fires lost; the next holder gets a greater fencing token', async () => {
    const zk = new FakeZk();
    const c1 = zk.client();
    const lease = await new Mutex(c1, '/l').acquire();
    const lost = lease.lost;
    const next = new Mutex(zk.client(), '/l').acquire();
    zk.expire(c1.sessionId);
    expect(lost.aborted).toBe(true);
    const l2 = await next;
    expect(l2.fencingToken > lease.fencingToken).toBe(true);
    await lease.release(); // does not wedge
  });

  it('guard() commits only while the node exists', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    zk.create('/res', 'x', 'persistent', 0n);
    const lease = await new Mutex(c, '/l').acquire();
    await lease.guard([{ op: 'setData', path: '/res', data: 'y' }]);
    zk.delete(lease.node);
    await expect(lease.guard([{ op: 'setData', path: '/res', data: 'z' }])).rejects.toMatchObject({ code: 'LOCK_LOST', cause: { code: 'NO_NODE' } });
    expect(new TextDecoder().decode(zk.nodes.get('/res')?.data)).toBe('y');
  });
});
