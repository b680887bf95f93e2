// Caches through faults, against the real server: changes made while the cache's connection is cut (a persistent
// watch does not replay them: CURATOR-391) and while its session is expired and renewed are caught up by the
// resync; a session over for good ends the cache; listeners that throw or await slow work harm nobody; the
// kazoo-style watchData / watchChildren helpers.
import { describe, expect, it } from 'vitest';

import { SessionExpiredError, createClient } from '@zkts/protocol';
import { TreeCache, watchChildren, watchData, type CacheEvent } from '@zkts/recipes';

import { cacheFaultSuite, cutAndReconnect, expireBehindProxy, fullRead, replay, victimClient, viewOf } from '../../support/cache.js';
import { sharedServer, sleep, until, uniqueRoot } from '../../support/helpers.js';

const suite = cacheFaultSuite();
const { clients, victims, caches, victim, seeded } = suite;


const text = (b: Uint8Array | undefined): string => (b === undefined ? '' : Buffer.from(b).toString('utf8'));


/** Changes no notification will report to a cut-off cache: a create, a set, a delete, a subtree delete. */
async function changeBehindItsBack(root: string): Promise<void> {
  await suite.writer.create(`${root}/d`, 'd0');
  await suite.writer.setData(`${root}/b`, 'b1');
  await suite.writer.delete(`${root}/c`);
  await suite.writer.removeRecursive(`${root}/a`);
}

/** A seeded subtree, a victim client behind its proxy, and a started TreeCache on it recording every event. */
async function startedCache(watchMode: 'auto' | 'one-shot'): Promise<{ root: string; v: Awaited<ReturnType<typeof victim>>; cache: TreeCache; events: CacheEvent<Uint8Array>[] }> {
  const root = uniqueRoot('cachef');
  await seeded(root);
  const v = await victim();
  const cache = new TreeCache(v.client, root, { watchMode });
  caches.push(cache);
  const events: CacheEvent<Uint8Array>[] = [];
  cache.on((e) => void events.push(e));
  await cache.start();
  return { root, v, cache, events };
}

describe.each(['auto', 'one-shot'] as const)('caches through faults (watchMode %s)', (watchMode) => {
  it('a reconnect: what changed while cut off arrives, then resynced; the stream replays to the view', async () => {
    const { root, v, cache, events } = await startedCache(watchMode);
    await cutAndReconnect(v, () => changeBehindItsBack(root));
    await until(() => events.some((e) => e.type === 'resynced'), 10_000, 'resynced');
    const expected = await fullRead(suite.writer, root);
    expect(viewOf(cache)).toEqual(expected);
    expect(events.at(-1)).toEqual({ type: 'resynced', reason: 'reconnect', size: expected.size });
    const { map, mismatches } = replay(events);
    expect(mismatches).toEqual([]);
    expect(map).toEqual(expected);
    expect(cache.stats.outOfOrder).toBe(0);
  });

  it('an expiry and a new session: resynced with reason renewal, the view in line, changes after it followed', async () => {
    const { root, v, cache, events } = await startedCache(watchMode);
    await expireBehindProxy(v, () => changeBehindItsBack(root));
    await until(() => events.some((e) => e.type === 'resynced'), 10_000, 'resynced');
    expect(events.find((e) => e.type === 'resynced')).toMatchObject({ reason: 'renewal' });
    expect(viewOf(cache)).toEqual(await fullRead(suite.writer, root));
    await suite.writer.create(`${root}/after`, 'z');
    // The view takes a change as soon as it is read, but its event waits until every read that might order before
    // it is done: wait for the event, which is what the replay below checks.
    await until(() => cache.get(`${root}/after`) !== undefined, 5000, 'a change in the new session');
    await until(() => events.some((e) => e.type === 'added' && e.path === `${root}/after`), 5000, 'its added event');
    const { map, mismatches } = replay(events);
    expect(mismatches).toEqual([]);
    expect(map).toEqual(await fullRead(suite.writer, root));
  });
});

describe('session ends', () => {
  it('renewWatches: false: the cache re-adds its persistent watch in the new session', async () => {
    const root = uniqueRoot('cachef');
    await seeded(root);
    const v = await victimClient();
    await v.client.close();
    const client = createClient(v.proxy.connectString, { sessionTimeout: 4000, renewWatches: false });
    await client.connect();
    const own = { client, proxy: v.proxy };
    victims.push(own);
    const cache = new TreeCache(client, root);
    caches.push(cache);
    await cache.start();
    await expireBehindProxy(own, () => changeBehindItsBack(root));
    await until(async () => viewOf(cache).size === (await fullRead(suite.writer, root)).size, 10_000, 'the resync');
    await suite.writer.setData(`${root}/d`, 'd1');
    await until(() => text(cache.get(`${root}/d`)?.data) === 'd1', 5000, 'a change heard through the re-added watch');
  });

  it('renewSession: false: an expiry ends the cache; its iterators throw SessionExpiredError', async () => {
    const root = uniqueRoot('cachef');
    await seeded(root);
    const v = await victimClient();
    await v.client.close();
    const client = createClient(v.proxy.connectString, { sessionTimeout: 4000, renewSession: false });
    await client.connect();
    const own = { client, proxy: v.proxy };
    victims.push(own);
    const cache = new TreeCache(client, root);
    caches.push(cache);
    const iterator = cache.events();
    await cache.start();
    v.proxy.blackhole();
    v.proxy.cut();
    const thief = createClient(sharedServer(), { sessionTimeout: 4000, sessionId: client.sessionId, sessionPassword: client.sessionPassword });
    await thief.connect();
    await thief.close();
    v.proxy.restore();
    const drained: string[] = [];
    const outcome = await (async () => {
      try {
        for (;;) {
          const next = await iterator.next();
          if (next.done === true) return 'ended quietly';
          drained.push(next.value.type);
        }
      } catch (e) {
        return e;
      }
    })();
    expect(drained.at(-1)).toBe('initialized');
    expect(outcome).toBeInstanceOf(SessionExpiredError);
    await expect(cache.start()).rejects.toThrow(/closed/);
  });
});

describe('reads that time out', () => {
  it('a read lost to requestTimeout (connection kept) is reported, then the cache re-reads: resynced, reason retry', async () => {
    const root = uniqueRoot('cachef');
    await seeded(root);
    const v = await victimClient();
    await v.client.close();
    const client = createClient(v.proxy.connectString, { sessionTimeout: 10_000, requestTimeout: 300 });
    await client.connect();
    victims.push({ client, proxy: v.proxy });
    const errors: Error[] = [];
    const cache = new TreeCache(client, root, { onError: (e) => errors.push(e) });
    caches.push(cache);
    const events: CacheEvent<Uint8Array>[] = [];
    cache.on((e) => void events.push(e));
    await cache.start();
    // Everything takes 600 ms each way: the read a change leads to outlives its 300 ms; the connection stays.
    v.proxy.delay(600);
    await suite.writer.setData(`${root}/b`, 'slow');
    await until(() => errors.length > 0, 10_000, 'a timed-out read');
    v.proxy.restore();
    await until(() => events.some((e) => e.type === 'resynced'), 15_000, 'the re-read');
    expect(errors[0]).toMatchObject({ code: 'CACHE_READ' });
    expect(events.find((e) => e.type === 'resynced')).toMatchObject({ reason: 'retry' });
    expect(client.state).toBe('connected');
    expect(text(cache.get(`${root}/b`)?.data)).toBe('slow');
    expect(viewOf(cache)).toEqual(await fullRead(suite.writer, root));
  });
});

describe('batched full reads', () => {
  it('a reply too big for the client (large nodes among small ones) costs one reconnect, then node by node', async () => {
    const root = uniqueRoot('cachef');
    await suite.writer.create(root);
    for (let i = 0; i < 40; i++) await suite.writer.create(`${root}/small${i}`, 'x');
    // Two 600 KB nodes read in one multiRead batch make a reply over the client's 1 MiB maxPacket.
    const big = new Uint8Array(600 * 1024).fill(7);
    await suite.writer.create(`${root}/big1`, big);
    await suite.writer.create(`${root}/big2`, big);
    const v = await victim();
    const states: string[] = [];
    v.client.onStateChange((c) => states.push(c.state));
    const cache = new TreeCache(v.client, root);
    caches.push(cache);
    await cache.start({ timeout: 20_000 });
    expect(viewOf(cache)).toEqual(await fullRead(suite.writer, root));
    expect(cache.get(`${root}/big2`)?.data.length).toBe(600 * 1024);
    expect(states).toContain('suspended');
    // From then on, node by node for every cache of that client: a second one loads without another reconnect.
    const seen = states.length;
    const again = new TreeCache(v.client, root);
    caches.push(again);
    await again.start({ timeout: 20_000 });
    expect(viewOf(again)).toEqual(await fullRead(suite.writer, root));
    expect(states.length).toBe(seen);
  });
});

describe('listeners', () => {
  it('one that throws and one that awaits slow work affect neither the client nor the other listeners', async () => {
    const root = uniqueRoot('cachef');
    await suite.writer.create(root);
    const reader = await clients.connect();
    const errors: Error[] = [];
    const cache = new TreeCache(reader, root, { onError: (e) => errors.push(e) });
    caches.push(cache);
    let thrown = 0;
    cache.on(() => {
      thrown++;
      throw new Error('listener bug');
    });
    // The slow listener is stuck in its first event until the test opens the gate: however loaded the machine,
    // everything below happens while it has not returned.
    const slow: CacheEvent<Uint8Array>[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    cache.on(async (e) => {
      slow.push(e);
      await gate;
    });
    const fast: CacheEvent<Uint8Array>[] = [];
    cache.on((e) => void fast.push(e));
    await cache.start();
    for (let i = 0; i < 40; i++) await suite.writer.create(`${root}/n${i}`, `${i}`);
    // Generous: 40 creates and their events on a loaded machine; a listener that waited for the slow one would
    // never get past its first event, whatever the bound.
    await until(() => fast.length === 42, 30_000, `the fast listener (${fast.length}: ${JSON.stringify(cache.stats)})`);
    expect(slow.length).toBe(1);
    // The client answers meanwhile (a wedged client would never resolve this).
    expect(text((await reader.getData(`${root}/n39`)).data)).toBe('39');
    // Once the slow one returns, it gets every event, in order.
    open();
    await until(() => slow.length === 42, 10_000, 'the slow listener');
    expect(slow).toEqual(fast);
    expect(thrown).toBe(42);
    expect(errors).toHaveLength(42);
    expect(errors[0]?.message).toBe('listener bug');
  });
});

describe('watchData / watchChildren', () => {
  it('watchData: called at once with null for a missing node, then on creation, change and deletion; false stops it', async () => {
    const path = `${uniqueRoot('cachef')}-data`;
    const reader = await clients.connect();
    const calls: (string | null)[] = [];
    const w = watchData(reader, path, (data, stat) => {
      calls.push(data === null ? null : `${text(data)}@${stat?.version}`);
      return calls.length < 4;
    });
    caches.push(w);
    await w.ready;
    expect(calls).toEqual([null]);
    await suite.writer.create(path, 'a');
    await until(() => calls.length === 2, 5000, 'creation');
    await suite.writer.setData(path, 'b');
    await until(() => calls.length === 3, 5000, 'change');
    await suite.writer.delete(path);
    await until(() => calls.length === 4, 5000, 'deletion');
    expect(calls).toEqual([null, 'a@0', 'b@1', null]);
    await suite.writer.create(path, 'c');
    await sleep(300);
    expect(calls).toHaveLength(4);
  });

  it('watchChildren: the sorted names at once and on every membership change; null while the node is missing', async () => {
    const root = uniqueRoot('cachef');
    await suite.writer.create(root);
    await suite.writer.create(`${root}/b`);
    const reader = await clients.connect();
    const calls: (string[] | null)[] = [];
    const w = watchChildren(reader, root, (children) => void calls.push(children));
    caches.push(w);
    await w.ready;
    expect(calls).toEqual([['b']]);
    await suite.writer.create(`${root}/a`);
    await until(() => calls.length === 2, 5000, 'a child added');
    await suite.writer.setData(`${root}/a`, 'data changes are not membership changes');
    await suite.writer.create(`${root}/a/grandchild`);
    await suite.writer.removeRecursive(root);
    await until(() => calls.at(-1) === null, 5000, 'the parent gone');
    await suite.writer.create(root);
    await until(() => Array.isArray(calls.at(-1)), 5000, 'the parent back');
    expect(calls[1]).toEqual(['a', 'b']);
    expect(calls.at(-1)).toEqual([]);
    expect(calls.every((c) => c === null || !c.includes('grandchild'))).toBe(true);
  });
});
