// Shared bits of the cache tests: a client behind its own fault proxy (cut it, expire its session by theft), a
// fresh full read of a subtree to compare a cache with, and the replay of an event stream on an empty map.
import { createClient, type ZkClient } from '@zkts/protocol';
import { startFaultProxy, type FaultProxy } from '@zkts/testkit';
import type { CacheEvent, TreeCache } from '@zkts/recipes';

import { afterAll, afterEach, beforeAll } from 'vitest';

import { Clients, sharedServer, sleep } from './helpers.js';

export interface Victim {
  client: ZkClient;
  proxy: FaultProxy;
}

export async function victimClient(options: { sessionTimeout?: number } = {}): Promise<Victim> {
  const [host, port] = sharedServer().split(',')[0]!.split(':');
  const proxy = await startFaultProxy({ host: host!, port: Number(port) });
  const client = createClient(proxy.connectString, { sessionTimeout: options.sessionTimeout ?? 4000 });
  await client.connect();
  return { client, proxy };
}

export async function closeVictim(v: Victim): Promise<void> {
  await v.client.close().catch(() => undefined);
  await v.proxy.close();
}

/** Resolves at the victim's next state `state` (heard as a change, since renewal moves on at once). */
export function nextState(client: ZkClient, state: string, timeout = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${state}`));
    }, timeout);
    const off = client.onStateChange((change) => {
      if (change.state !== state) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

/**
 * Ends the victim's session from the server side while it is cut off (another connection takes the session over
 * and closes it); the victim then hears `expired` and renews. Resolves once it is connected in a new session.
 */
export async function expireBehindProxy(v: Victim, whileCut: () => Promise<void> = async () => undefined): Promise<void> {
  const { client, proxy } = v;
  const expired = nextState(client, 'expired');
  const oldId = client.sessionId;
  proxy.blackhole();
  proxy.cut();
  const thief = createClient(sharedServer(), { sessionTimeout: 4000, sessionId: oldId, sessionPassword: client.sessionPassword });
  await thief.connect();
  await thief.close();
  await whileCut();
  proxy.restore();
  await expired;
  while (client.state !== 'connected' || client.sessionId === oldId) await sleep(20);
}

/** Cuts the victim's connection (held off while `whileCut` runs) and waits until it is connected again (same session). */
export async function cutAndReconnect(v: Victim, whileCut: () => Promise<void> = async () => undefined): Promise<void> {
  const suspended = nextState(v.client, 'suspended');
  v.proxy.blackhole();
  v.proxy.cut();
  await suspended;
  await whileCut();
  v.proxy.restore();
  while (v.client.state !== 'connected') await sleep(10);
}

export interface Seen {
  data: string;
  version: number;
  mzxid: bigint;
}

const text = (b: Uint8Array | undefined): string => (b === undefined ? '' : Buffer.from(b).toString('utf8'));

/** Every node under (and including) `root`, read now with plain reads. */
export async function fullRead(client: ZkClient, root: string): Promise<Map<string, Seen>> {
  const out = new Map<string, Seen>();
  const visit = async (path: string): Promise<void> => {
    let read: { data: Uint8Array; stat: { version: number; mzxid: bigint; numChildren: number } };
    try {
      read = await client.getData(path);
    } catch (e) {
      if ((e as { code?: string }).code === 'NO_NODE') return;
      throw e;
    }
    out.set(path, { data: text(read.data), version: read.stat.version, mzxid: read.stat.mzxid });
    let children: string[] = [];
    try {
      children = (await client.getChildren(path)).children;
    } catch (e) {
      if ((e as { code?: string }).code !== 'NO_NODE') throw e;
    }
    await Promise.all(children.map((c) => visit(path === '/' ? `/${c}` : `${path}/${c}`)));
  };
  await visit(root);
  return out;
}

/** The cache's view in the same shape. */
export function viewOf(cache: TreeCache): Map<string, Seen> {
  const out = new Map<string, Seen>();
  for (const [path, node] of cache.entries()) out.set(path, { data: text(node.data), version: node.stat.version, mzxid: node.stat.mzxid });
  return out;
}

/** Applies node events to a map, checking each against what the map holds (old must match, added must be new). */
export function replay(events: readonly CacheEvent<Uint8Array>[]): { map: Map<string, Seen>; mismatches: string[] } {
  const map = new Map<string, Seen>();
  const mismatches: string[] = [];
  for (const e of events) {
    if (e.type === 'initialized' || e.type === 'resynced') continue;
    const had = map.get(e.path);
    if (e.type === 'added' && had !== undefined) mismatches.push(`added over an existing ${e.path}`);
    if (e.type !== 'added' && (had === undefined || had.mzxid !== e.old.stat.mzxid)) mismatches.push(`${e.type} of ${e.path}: old does not match`);
    if (e.type === 'removed') map.delete(e.path);
    else map.set(e.path, { data: text(e.node.data), version: e.node.stat.version, mzxid: e.node.stat.mzxid });
  }
  return { map, mismatches };
}

/** Differences between two views, for a readable failure. */
export function diff(a: Map<string, Seen>, b: Map<string, Seen>, limit = 10): string[] {
  const out: string[] = [];
  for (const [p, x] of a) {
    const y = b.get(p);
    if (y === undefined) out.push(`only in the first: ${p}`);
    else if (x.data !== y.data || x.version !== y.version) out.push(`${p}: ${x.version}/${x.data} vs ${y.version}/${y.data}`);
  }
  for (const p of b.keys()) if (!a.has(p)) out.push(`only in the second: ${p}`);
  return out.slice(0, limit);
}

export { sharedServer };

/**
 * The set-up of a cache test file that breaks a cache's connection: a `writer` client for the changes, the
 * victims (clients behind a fault proxy) and caches it opens, closed after each test, and `seeded(root)`:
 * root, a, b, c and a/x, five nodes.
 */
export interface CacheFaultSuite {
  /** The file's plain clients (the writer's too), closed after the file. */
  readonly clients: Clients;
  readonly writer: ZkClient;
  readonly victims: Victim[];
  readonly caches: { close(): Promise<void> }[];
  /** A victim, closed after the test. */
  victim(): Promise<Victim>;
  seeded(root: string): Promise<void>;
}

export function cacheFaultSuite(): CacheFaultSuite {
  const clients = new Clients();
  let writer: ZkClient | undefined;
  const victims: Victim[] = [];
  const caches: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    writer = await clients.connect();
  });
  afterAll(() => clients.closeAll());
  afterEach(async () => {
    for (const c of caches.splice(0)) await c.close();
    for (const v of victims.splice(0)) await closeVictim(v);
  });
  const suite: CacheFaultSuite = {
    get writer(): ZkClient {
      if (writer === undefined) throw new Error('the writer connects in beforeAll: use it inside a test');
      return writer;
    },
    clients,
    victims,
    caches,
    async victim() {
      const v = await victimClient();
      victims.push(v);
      return v;
    },
    async seeded(root) {
      await suite.writer.create(root);
      for (const n of ['a', 'b', 'c']) await suite.writer.create(`${root}/${n}`, `${n}0`);
      await suite.writer.create(`${root}/a/x`, 'x0');
    },
  };
  return suite;
}
