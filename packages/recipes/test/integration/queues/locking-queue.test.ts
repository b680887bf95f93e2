// kazoo's LockingQueue layout against a real server: priority order, locks, a consumer SIGKILLed mid-item,
// lost replies and session expiry around get / put / consume, and kazoo processes on the same queue.
import { afterEach, describe, expect, it } from 'vitest';

import { LockingQueue, OutcomeUnknownError, type RecipeClient } from '@zkts/recipes';
import type { FaultProxy } from '@zkts/testkit';

import { expireSession, Proxies, victimClient } from '../../support/expiry.js';
import { checkKazoo, kazooScript, killAll, zktsProcess } from '../../support/foreign.js';
import { Clients, childrenOf, sharedServer, text, until, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
const proxies = new Proxies();
afterEach(async () => {
  killAll();
  await clients.closeAll();
  await proxies.closeAll();
});

/**
 * The client, except that after `arm()` its next `multi` goes out with the proxy set to swallow the reply (the
 * write is applied, the reply lost, the connection cut). `losses` counts the connections lost meanwhile.
 */
function replyLoser(client: RecipeClient, proxy: FaultProxy): { client: RecipeClient; arm(): void; losses(): number } {
  let armed = false;
  let losses = 0;
  client.onStateChange((change) => {
    if (change.previous === 'connected' && change.state !== 'connected') losses++;
  });
  const wrapped = new Proxy(client, {
    get(target, prop) {
      if (prop === 'multi') {
        return (...args: Parameters<RecipeClient['multi']>) => {
          if (armed) proxy.dropNextReply();
          armed = false;
          return target.multi(...args);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { client: wrapped, arm: () => (armed = true), losses: () => losses };
}

describe('LockingQueue (kazoo layout)', () => {
  it('hands entries out by priority, then FIFO; nodes are kazoo’s', async () => {
    const path = uniqueRoot('lq');
    const c = await clients.connect();
    const q = new LockingQueue(c, path);
    await q.put('a');
    await q.putAll(['b', 'c'], { priority: 5 });
    await q.put('d', { priority: 999 });
    await q.put('e', { priority: 0 });
    expect(await q.size()).toBe(5);
    const names = (await childrenOf(c, `${path}/entries`)).sort();
    expect(names.every((n) => /^entry-\d{3}-\d{10}$/.test(n))).toBe(true);
    expect(await childrenOf(c, path)).toEqual(expect.arrayContaining(['entries', 'taken']));
    expect((await c.exists(`${path}/entries`))?.ephemeralOwner).toBe(0n);
    const got: string[] = [];
    for (let i = 0; i < 5; i++) {
      const entry = await q.get({ timeout: 5000 });
      const lock = await c.getData(`${path}/taken/${entry.name}`);
      expect(text(lock.data)).toBe(q.id);
      expect(q.id).toMatch(/^[0-9a-f]{32}$/);
      expect(lock.stat.ephemeralOwner).toBe(c.sessionId);
      expect(await q.get()).toBe(entry); // not consumed yet: the same entry again, as kazoo
      expect(await q.holdsLock()).toBe(true);
      got.push(text(entry.data));
      expect(await q.consume()).toBe(true);
      expect(await q.consume()).toBe(false); // never removed twice
    }
    expect(got).toEqual(['e', 'b', 'c', 'a', 'd']);
    expect(await q.size()).toBe(0);
    expect(await childrenOf(c, `${path}/taken`)).toEqual([]);
    expect(await q.poll()).toBeNull();
    await expect(q.get({ timeout: 200 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(q.put('x', { priority: 1000 })).rejects.toMatchObject({ code: 'INVALID_USE' });
  });

  it('a locked entry is skipped by other consumers; release gives it back; a waiting get wakes for it', async () => {
    const path = uniqueRoot('lq');
    const [c1, c2] = await clients.many(2);
    const q1 = new LockingQueue(c1!, path);
    const q2 = new LockingQueue(c2!, path);
    await q1.putAll(['first', 'second']);
    expect(text((await q1.get()).data)).toBe('first');
    expect(text((await q2.get()).data)).toBe('second');
    expect(await q2.release()).toBe(true);
    expect(await q2.holdsLock()).toBe(false);
    expect(await q1.consume()).toBe(true);
    const q3 = new LockingQueue(c2!, path);
    expect(text((await q3.get()).data)).toBe('second');
    const waiting = q2.get({ timeout: 10_000 });
    await q3.release(); // the waiting get hears the lock go (a child watch on taken/)
    expect(text((await waiting).data)).toBe('second');
    expect(await q2.consume()).toBe(true);
    expect(await q1.size()).toBe(0);
  });

  it('a consumer SIGKILLed mid-item: every item is delivered, the killed one again, and each is removed exactly once', async () => {
    const path = uniqueRoot('lq');
    const c = await clients.connect();
    const producer = new LockingQueue(c, path);
    const items = Array.from({ length: 12 }, (_, i) => `item-${i}`);
    await producer.putAll(items);
    const child = zktsProcess('take-entry.ts', sharedServer(), path, '2000');
    const killedItem = (await child.line(/GOT \S+ (\S+)/))[1]!;
    expect(killedItem).toBe('item-0');
    child.proc.kill('SIGKILL');
    // Two consumers drain the queue concurrently; the killed consumer's entry comes back when its session ends.
    const consumers = await clients.many(2);
    const delivered: string[] = [];
    let consumed = 0;
    const allDone = new AbortController();
    await Promise.all(
      consumers.map(async (client) => {
        const q = new LockingQueue(client, path);
        for (;;) {
          let entry;
          try {
            entry = await q.get({ timeout: 20_000, signal: allDone.signal });
          } catch (e) {
            if (allDone.signal.aborted) return;
            throw e;
          }
          delivered.push(text(entry.data));
          if (await q.consume()) consumed++;
          if (consumed === items.length) allDone.abort();
        }
      }),
    );
    expect(consumed).toBe(items.length);
    expect([...delivered].sort()).toEqual([...items].sort());
    expect(delivered).toContain(killedItem);
    expect(await producer.size()).toBe(0);
    expect(await childrenOf(c, `${path}/taken`)).toEqual([]);
  });

  it('lost replies: a put, a lock and a consume whose replies were lost each take effect exactly once', async () => {
    const path = uniqueRoot('lq');
    const p = await proxies.start();
    const c = await clients.connect(p.connectString);
    const observer = await clients.connect();
    const loser = replyLoser(c, p);
    const session = c.sessionId;
    await new LockingQueue(c, path).putAll(['a', 'b']);
    loser.arm();
    await new LockingQueue(loser.client, path).put('c'); // the put's multi: applied, reply lost
    expect(loser.losses()).toBe(1);
    expect(await childrenOf(observer, `${path}/entries`)).toHaveLength(3);
    const taker = new LockingQueue(loser.client, path);
    loser.arm();
    const entry = await taker.get({ timeout: 10_000 }); // the lock's multi: reply lost, then recognised as ours
    expect(loser.losses()).toBe(2);
    expect(text(entry.data)).toBe('a');
    expect(await childrenOf(observer, `${path}/taken`)).toEqual([entry.name]);
    const consumer = new LockingQueue(loser.client, path);
    const held = await consumer.get({ timeout: 10_000 });
    expect(text(held.data)).toBe('b');
    loser.arm();
    expect(await consumer.consume()).toBe(true); // reply lost: settled by our lock node being gone
    expect(loser.losses()).toBe(3);
    expect(c.sessionId).toBe(session);
    expect(await taker.consume()).toBe(true);
    expect(await childrenOf(observer, `${path}/taken`)).toEqual([]);
    const left = await childrenOf(observer, `${path}/entries`);
    expect(left).toHaveLength(1);
    expect(text((await observer.getData(`${path}/entries/${left[0]!}`)).data)).toBe('c');
    // No receipts left behind.
    await until(async () => (await childrenOf(observer, path)).sort().join() === 'entries,taken', 5000, 'receipts gone');
  });

  it('session expiry: a waiting get goes on in the renewed session; a held entry comes back and its consume is refused', async () => {
    const path = uniqueRoot('lq');
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    const waiting = new LockingQueue(victim.client, path);
    const pending = waiting.get({ timeout: 20_000 });
    await until(async () => (await childrenOf(other, `${path}/taken`)).length === 0 && (await other.exists(`${path}/taken`)) !== null, 5000, 'structure');
    await expireSession(victim, { renewed: true });
    await new LockingQueue(other, path).put('after-expiry');
    const got = await pending;
    expect(text(got.data)).toBe('after-expiry');
    expect(got.sessionId).toBe(victim.client.sessionId);
    // Now expire it while it holds the entry: the entry goes back; the old holder's consume is refused.
    await expireSession(victim, { renewed: true });
    expect(await waiting.holdsLock()).toBe(false);
    const second = new LockingQueue(other, path);
    expect(text((await second.get({ timeout: 10_000 })).data)).toBe('after-expiry');
    expect(await waiting.consume()).toBe(false);
    expect(await second.consume()).toBe(true);
    expect(await second.size()).toBe(0);
  });

  it('session expiry while a get makes the queue’s nodes: the get goes on in the renewed session', async () => {
    const path = uniqueRoot('lq');
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    // The get's first create (the queue's nodes do not exist yet) starts the expiry: it goes out, or waits to,
    // on a connection that is cut off until the session is gone.
    let expiring: Promise<void> | undefined;
    const client = new Proxy(victim.client, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function') return value;
        if (prop !== 'create') return (value as (...a: unknown[]) => unknown).bind(target);
        return (...args: Parameters<RecipeClient['create']>) => {
          expiring ??= expireSession(victim, { renewed: true });
          return target.create(...args);
        };
      },
    });
    const pending = new LockingQueue(client, path).get({ timeout: 20_000 });
    // Handled here so an early rejection fails the await below rather than surfacing as an unhandled one.
    pending.catch(() => undefined);
    await until(() => expiring !== undefined, 5000, 'the first create');
    await expiring;
    await new LockingQueue(other, path).put('after-expiry');
    const got = await pending;
    expect(text(got.data)).toBe('after-expiry');
    expect(got.sessionId).toBe(victim.client.sessionId);
  });

  it('a connection cut while get waits: the get goes on after the reconnect and takes the next entry', async () => {
    const path = uniqueRoot('lq');
    const p = await proxies.start();
    const c = await clients.connect(p.connectString);
    const other = await clients.connect();
    const q = new LockingQueue(c, path);
    const session = c.sessionId;
    const pending = q.get({ timeout: 20_000 });
    await until(async () => (await other.exists(`${path}/taken`)) !== null, 5000, 'structure');
    const reconnected = new Promise<void>((resolve) => {
      const off = c.onStateChange((change) => {
        if (change.state !== 'connected') return;
        off();
        resolve();
      });
    });
    p.cut();
    await reconnected;
    await new LockingQueue(other, path).put('after-cut');
    expect(text((await pending).data)).toBe('after-cut');
    expect(c.sessionId).toBe(session);
    expect(await q.consume()).toBe(true);
  });

  it('a consume whose reply is lost in a session that then ends rejects with OutcomeUnknownError; a holder whose session ended is refused', async () => {
    const path = uniqueRoot('lq');
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    const q = new LockingQueue(victim.client, path);
    await q.putAll(['one', 'two']);
    await q.get();
    // Keep the client off after the dropped reply (no reconnect in the old session), then end its session.
    const keepOff = (): void => {
      const off = victim.client.onStateChange((change) => {
        if (change.state === 'connected') return;
        off();
        victim.proxy.blackhole();
      });
    };
    const loser = replyLoser(victim.client, victim.proxy);
    const q2 = new LockingQueue(loser.client, path);
    expect(text((await q2.get()).data)).toBe('two');
    keepOff();
    loser.arm();
    const consumed = q2.consume().then(() => 'resolved', (e: unknown) => e);
    await until(() => victim.client.state !== 'connected', 5000, 'reply dropped');
    await expireSession(victim, { renewed: true });
    expect(await consumed).toBeInstanceOf(OutcomeUnknownError); // it did commit: 'two' is gone, but we cannot tell it was us
    expect((await childrenOf(other, `${path}/entries`)).length).toBe(1);
    // The first instance's consume is refused outright: its lock went with the session, and 'one' is back.
    expect(await q.consume()).toBe(false);
    const again = new LockingQueue(other, path);
    expect(text((await again.get({ timeout: 5000 })).data)).toBe('one');
    expect(await again.consume()).toBe(true);
  });

  it('a put whose reply is lost in a session that then ends rejects with OutcomeUnknownError', async () => {
    const path = uniqueRoot('lq');
    const victim = await victimClient(clients, proxies);
    const q = new LockingQueue(victim.client, path);
    await q.put('structure');
    // Forward the put, swallow its reply, and keep the client off (no reconnect in the old session) while its
    // session is ended.
    const off = victim.client.onStateChange((change) => {
      if (change.state === 'connected') return;
      off();
      victim.proxy.blackhole();
    });
    victim.proxy.dropNextReply();
    const put = q.put('lost').then(() => undefined, (e: unknown) => e);
    await until(() => victim.client.state !== 'connected', 5000, 'reply dropped');
    await expireSession(victim, { renewed: true });
    expect(await put).toBeInstanceOf(OutcomeUnknownError);
    // It was applied (the proxy forwarded it): the queue has it once.
    expect(await new LockingQueue(await clients.connect(), path).size()).toBe(2);
  });
});

describe('LockingQueue interop with kazoo (python3 + kazoo, same server and path)', () => {
  it('kazoo puts, we get and consume in kazoo’s order', async () => {
    checkKazoo();
    const path = uniqueRoot('lq');
    const k1 = kazooScript('kazoo_queue.py', sharedServer(), path, 'put', '100', 'k-a', 'k-b');
    await k1.line(/DONE/);
    const k2 = kazooScript('kazoo_queue.py', sharedServer(), path, 'put', '7', 'k-urgent');
    await k2.line(/DONE/);
    const c = await clients.connect();
    const q = new LockingQueue(c, path);
    const got: string[] = [];
    for (let i = 0; i < 3; i++) {
      got.push(text((await q.get({ timeout: 5000 })).data));
      expect(await q.consume()).toBe(true);
    }
    expect(got).toEqual(['k-urgent', 'k-a', 'k-b']);
    expect(await q.size()).toBe(0);
  });

  it('we put, kazoo gets and consumes in order', async () => {
    checkKazoo();
    const path = uniqueRoot('lq');
    const c = await clients.connect();
    const q = new LockingQueue(c, path);
    await q.putAll(['z-1', 'z-2']);
    await q.put('z-first', { priority: 1 });
    const k = kazooScript('kazoo_queue.py', sharedServer(), path, 'consume', '3');
    await k.line(/DONE/);
    expect(k.output().match(/GOT \S+/g)).toEqual(['GOT z-first', 'GOT z-1', 'GOT z-2']);
    expect(await q.size()).toBe(0);
    expect(await childrenOf(c, `${path}/taken`)).toEqual([]);
  });

  it('kazoo and zkts consumers drain one queue together: each entry is consumed once, by one of them', async () => {
    checkKazoo();
    const path = uniqueRoot('lq');
    const c = await clients.connect();
    const items = Array.from({ length: 150 }, (_, i) => `m-${i}`);
    await new LockingQueue(c, path).putAll(items);
    const kazoo = [kazooScript('kazoo_queue.py', sharedServer(), path, 'drain', '2'), kazooScript('kazoo_queue.py', sharedServer(), path, 'drain', '2')];
    await kazoo[0]!.line(/GOT/); // kazoo is consuming: now ours join in
    const ours: string[] = [];
    const idle = 2000;
    await Promise.all(
      (await clients.many(2)).map(async (client) => {
        const q = new LockingQueue(client, path);
        for (;;) {
          const entry = await q.get({ timeout: idle }).catch((e: unknown) => {
            if ((e as { code?: string }).code === 'TIMEOUT') return undefined;
            throw e;
          });
          if (entry === undefined) return;
          expect(await q.consume()).toBe(true);
          ours.push(text(entry.data));
        }
      }),
    );
    await Promise.all(kazoo.map((k) => k.line(/DONE/)));
    const theirs = kazoo.flatMap((k) => [...k.output().matchAll(/GOT (\S+)/g)].map((m) => m[1]!));
    expect(theirs.length).toBeGreaterThan(0);
    expect(ours.length).toBeGreaterThan(0);
    expect([...ours, ...theirs].sort()).toEqual([...items].sort());
    expect(await new LockingQueue(c, path).size()).toBe(0);
  });

  it('an entry a kazoo consumer holds is not ours until kazoo releases it', async () => {
    checkKazoo();
    const path = uniqueRoot('lq');
    const c = await clients.connect();
    const q = new LockingQueue(c, path);
    await q.put('only');
    const k = kazooScript('kazoo_queue.py', sharedServer(), path, 'hold');
    await k.line(/HELD only/);
    expect(await q.poll()).toBeNull();
    await expect(q.get({ timeout: 500 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const waiting = q.get({ timeout: 15_000 });
    k.proc.stdin!.write('release\n');
    await k.line(/RESULT True/);
    expect(text((await waiting).data)).toBe('only');
    // And the other way round: kazoo cannot take what we hold, and our consume removes it for both.
    const k2 = kazooScript('kazoo_queue.py', sharedServer(), path, 'consume', '1');
    await new Promise((r) => setTimeout(r, 1000));
    expect(k2.output()).not.toMatch(/GOT/);
    expect(await q.consume()).toBe(true);
    await q.put('next');
    await k2.line(/DONE/);
    expect(k2.output()).toMatch(/GOT next/);
  });
});
