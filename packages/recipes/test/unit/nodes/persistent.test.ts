// PersistentNode and PersistentTtlNode through deletes and a session renewal, on the in-memory ZooKeeper, with
// a ManualClock for the TTL touches.
import { describe, expect, it } from 'vitest';

import { ManualClock } from '@zkts/testkit';

import { PersistentNode, PersistentTtlNode } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

describe('PersistentNode (in-memory ZooKeeper)', () => {
  it('protected ephemeral-sequential: made again after a delete and after a renewal, each time with a new path', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const node = new PersistentNode(c, '/svc/member-', { mode: 'ephemeral-sequential', data: 'me' });
    const paths: (string | undefined)[] = [];
    node.onChange((p) => paths.push(p));
    node.start();
    const p1 = await node.awaitCreated();
    expect(p1).toMatch(/^\/svc\/_c_[0-9a-f-]{36}-member-0000000000$/);
    zk.delete(p1);
    const p2 = await until(node, (p) => p !== p1);
    zk.expire(c.sessionId, { renew: true });
    expect(node.currentPath).toBeUndefined(); // at the expiry, not later
    const p3 = await until(node, (p) => p !== p2);
    expect(zk.nodes.get(p3)?.stat.ephemeralOwner).toBe(c.sessionId);
    expect(new TextDecoder().decode(zk.nodes.get(p3)!.data)).toBe('me');
    expect(paths).toEqual([p1, undefined, p2, undefined, p3]);
    expect(node.stats).toEqual({ creates: 3, losses: 2 });
    await node.close();
    expect(zk.children('/svc')).toEqual([]);
  });

  it("fixed-path ephemeral: another session's node is waited out, not adopted", async () => {
    const zk = new FakeZk();
    const squatter = zk.client();
    await squatter.create('/svc', null);
    await squatter.create('/svc/name', 'theirs', { mode: 'ephemeral' });
    const c = zk.client();
    const node = new PersistentNode(c, '/svc/name', { data: 'ours' });
    node.start();
    await tick();
    expect(node.currentPath).toBeUndefined();
    zk.expire(squatter.sessionId);
    expect(await node.awaitCreated()).toBe('/svc/name');
    expect(zk.nodes.get('/svc/name')?.stat.ephemeralOwner).toBe(c.sessionId);
    await node.close();
    expect(zk.children('/svc')).toEqual([]);
  });

  it('close() during a create resolves only once the node that create makes is removed', async () => {
    const zk = new FakeZk();
    await zk.client().create('/svc', null);
    const c = zk.client();
    let land!: () => void;
    const landed = new Promise<void>((resolve) => (land = resolve));
    const create = c.create.bind(c);
    c.create = async (...args: Parameters<typeof c.create>) => {
      await landed; // the reply is slow: close() comes first
      return create(...args);
    };
    const node = new PersistentNode(c, '/svc/name', { data: 'x' });
    node.start();
    await tick();
    let closed = false;
    const closing = node.close().then(() => (closed = true));
    await tick();
    expect(closed).toBe(false);
    land();
    await closing;
    expect(zk.nodes.has('/svc/name')).toBe(false);
  });

  it('a persistent node outlives the renewal and is kept; close deletes it', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const node = new PersistentNode(c, '/cfg', { mode: 'persistent', data: 'v1' });
    node.start();
    const p = await node.awaitCreated();
    zk.expire(c.sessionId, { renew: true });
    await tick();
    expect(node.currentPath).toBe(p);
    await node.setData('v2');
    expect(new TextDecoder().decode(zk.nodes.get(p)!.data)).toBe('v2');
    await node.close();
    expect(zk.nodes.has(p)).toBe(false);
  });
});

describe('PersistentTtlNode (in-memory ZooKeeper, manual clock)', () => {
  it('touches its TTL child at once and every ttl/2, re-creating it when deleted; close removes both', async () => {
    const zk = new FakeZk();
    const clock = new ManualClock();
    const c = zk.client();
    const node = new PersistentTtlNode(c, '/reg/me', 10_000, { clock, data: 'x' });
    node.start();
    await node.awaitCreated();
    await tick();
    expect(zk.nodes.get('/reg/me')?.stat.ephemeralOwner).toBe(0n);
    expect(zk.ttls.get('/reg/me/touch')).toBe(10_000);
    expect(node.touches).toBe(1);
    const calls = c.calls.length;
    clock.advance(4_999);
    await tick();
    expect(c.calls.length).toBe(calls);
    clock.advance(1);
    await tick();
    expect(node.touches).toBe(2);
    expect(c.calls.slice(calls)).toEqual(['setData']);
    zk.delete('/reg/me/touch');
    clock.advance(5_000);
    await tick();
    expect(node.touches).toBe(3);
    expect(zk.nodes.has('/reg/me/touch')).toBe(true);
    await node.close();
    expect(zk.nodes.has('/reg/me')).toBe(false);
  });
});

/** Waits (on the fake, so only a few ticks) for the node's path to satisfy `ok`. */
async function until(node: PersistentNode, ok: (p: string) => boolean): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const p = node.currentPath;
    if (p !== undefined && ok(p)) return p;
    await tick();
  }
  throw new Error('no such path');
}
