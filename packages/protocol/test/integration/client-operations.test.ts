// Every operation against the shared server, each error code it can produce, and the chroot on every
// returned path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracingChannel } from 'node:diagnostics_channel';
import { Acls, ChannelNames, InvalidArgumentError, MultiError, Perms, ServerError, digestId, type WatchEvent, type ZkClient } from '@zkts/protocol';
import { open, sharedServer, text, uniqueRoot, until } from '../support/integration.js';

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ServerError) return err.code;
    throw err;
  }
  throw new Error('expected a ServerError');
}

describe('operations and their errors', () => {
  let zk: ZkClient;
  const root = uniqueRoot();

  beforeAll(async () => {
    zk = await open(sharedServer());
    await zk.create(root);
  });
  afterAll(async () => {
    await zk.removeRecursive(root);
    await zk.close();
  });

  it('create in every mode returns path and Stat', async () => {
    const p = await zk.create(`${root}/p`, 'd');
    expect(p.path).toBe(`${root}/p`);
    expect(p.stat.dataLength).toBe(1);
    const e = await zk.create(`${root}/e`, null, { mode: 'ephemeral' });
    expect(e.stat.ephemeralOwner).toBe(zk.sessionId);
    const s1 = await zk.create(`${root}/s-`, null, { mode: 'persistent-sequential' });
    const s2 = await zk.create(`${root}/s-`, null, { mode: 'ephemeral-sequential' });
    expect(s1.path).toMatch(new RegExp(`^${root}/s-\\d{10}$`));
    expect(Number(s2.path.slice(-10))).toBe(Number(s1.path.slice(-10)) + 1);
    const c = await zk.create(`${root}/c`, null, { mode: 'container' });
    expect(c.path).toBe(`${root}/c`);
    const t = await zk.create(`${root}/t`, null, { mode: 'persistent-ttl', ttl: 60_000 });
    expect(t.path).toBe(`${root}/t`);
    const ts = await zk.create(`${root}/ts-`, null, { mode: 'persistent-sequential-ttl', ttl: 60_000 });
    expect(ts.path).toMatch(/ts-\d{10}$/);
    // A sequential create may end with '/': the counter becomes the whole name.
    const bare = await zk.create(`${root}/c/`, null, { mode: 'persistent-sequential' });
    expect(bare.path).toMatch(new RegExp(`^${root}/c/\\d{10}$`));
  });

  it('create errors: NodeExists, NoNode, NoChildrenForEphemerals, InvalidACL', async () => {
    await zk.create(`${root}/dup`);
    expect(await code(zk.create(`${root}/dup`))).toBe('NODE_EXISTS');
    expect(await code(zk.create(`${root}/missing/child`))).toBe('NO_NODE');
    await zk.create(`${root}/eph`, null, { mode: 'ephemeral' });
    expect(await code(zk.create(`${root}/eph/child`))).toBe('NO_CHILDREN_FOR_EPHEMERALS');
    // 'auth' with no authenticated identity: the server refuses the ACL.
    expect(await code(zk.create(`${root}/noauth-acl`, null, { acl: Acls.creatorAll() }))).toBe('INVALID_ACL');
  });

  it('delete, exists, versions: BadVersion, NotEmpty, NoNode', async () => {
    await zk.create(`${root}/d`);
    const x = await zk.create(`${root}/d/x`);
    expect(await zk.exists(`${root}/d`)).toMatchObject({ numChildren: 1, cversion: 1, pzxid: x.stat.czxid });
    expect(await code(zk.delete(`${root}/d`))).toBe('NOT_EMPTY');
    expect(await code(zk.delete(`${root}/d/x`, { version: 5 }))).toBe('BAD_VERSION');
    await zk.delete(`${root}/d/x`, { version: 0 });
    expect(await zk.exists(`${root}/d`)).toMatchObject({ numChildren: 0, cversion: 2 });
    await zk.delete(`${root}/d`);
    expect(await code(zk.delete(`${root}/d`))).toBe('NO_NODE');
    expect(await zk.exists(`${root}/d`)).toBeNull();
  });

  it('getData/setData and their errors', async () => {
    await zk.create(`${root}/g`, new Uint8Array([1, 2, 3]));
    const { data, stat } = await zk.getData(`${root}/g`);
    expect([...data]).toEqual([1, 2, 3]);
    expect(stat.version).toBe(0);
    expect(await code(zk.setData(`${root}/g`, 'x', { version: 3 }))).toBe('BAD_VERSION');
    expect((await zk.setData(`${root}/g`, null)).dataLength).toBe(0);
    expect((await zk.getData(`${root}/g`)).data.byteLength).toBe(0);
    expect(await code(zk.getData(`${root}/nope`))).toBe('NO_NODE');
    expect(await code(zk.setData(`${root}/nope`, 'x'))).toBe('NO_NODE');
  });

  it('ACLs: getACL/setACL, digest enforcement, NoAuth, whoAmI', async () => {
    const acl = [Acls.digest('alice', 'secret'), { perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } }];
    await zk.create(`${root}/acl`, 'private', { acl });
    // Without READ|ADMIN rights as that digest user, the server masks the hash (ZOOKEEPER-1392).
    const masked = await zk.getACL(`${root}/acl`);
    expect(masked.acl[1]).toEqual({ perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } });
    expect(masked.acl[0]?.id.scheme).toBe('digest');
    expect(await code(zk.setData(`${root}/acl`, 'x'))).toBe('NO_AUTH');
    expect(await code(zk.setACL(`${root}/acl`, Acls.openUnsafe(), { version: 7 }))).toBe('NO_AUTH');
    const alice = await open(sharedServer(), { auth: [{ scheme: 'digest', auth: 'alice:secret' }] });
    try {
      expect((await alice.getACL(`${root}/acl`)).acl[0]).toEqual({ perms: Perms.ALL, id: { scheme: 'digest', id: digestId('alice', 'secret') } });
      await alice.setData(`${root}/acl`, 'by alice');
      const who = await alice.whoAmI();
      expect(who).toContainEqual({ authScheme: 'digest', user: 'alice' });
      expect(await code(alice.setACL(`${root}/acl`, Acls.openUnsafe(), { version: 7 }))).toBe('BAD_VERSION');
      await alice.setACL(`${root}/acl`, Acls.openUnsafe(), { version: 0 });
    } finally {
      await alice.close();
    }
    await zk.setData(`${root}/acl`, 'open now');
    expect(await code(zk.getACL(`${root}/nope`))).toBe('NO_NODE');
    // addAuth on a live session works the same as options.auth.
    const bob = await open(sharedServer());
    try {
      await zk.create(`${root}/bob`, null, { acl: [Acls.digest('bob', 'pw')] });
      expect(await code(bob.getData(`${root}/bob`))).toBe('NO_AUTH');
      await bob.addAuth('digest', 'bob:pw');
      expect((await bob.getData(`${root}/bob`)).stat.version).toBe(0);
      await bob.create(`${root}/bob/mine`, null, { acl: Acls.creatorAll() });
      expect((await bob.getACL(`${root}/bob/mine`)).acl[0]?.id).toEqual({ scheme: 'digest', id: digestId('bob', 'pw') });
      await bob.delete(`${root}/bob/mine`);
      await bob.setACL(`${root}/bob`, Acls.openUnsafe());
    } finally {
      await bob.close();
    }
  });

  it('back-pressure: 60 writes of 512 KiB queued at once all land intact, twice over one connection', async () => {
    // 30 MiB in one tick is far past the socket's buffer, so the flush waits for 'drain' (more than once). A loaded
    // server can stay silent for seconds while it takes in and logs that much: its own client has a 30 s session
    // (a 20 s read timeout), where the shared client's 4 s session would drop the connection after 2.7 s and leave
    // the writes' outcomes unknown.
    const big = await open(sharedServer(), { sessionTimeout: 30_000 });
    try {
      const path = `${root}/big`;
      await big.create(path);
      for (const round of [1, 2]) {
        const values = Array.from({ length: 60 }, (_, i) => new Uint8Array(512 * 1024).fill((round * 60 + i) & 0xff));
        const stats = await Promise.all(values.map((v) => big.setData(path, v)));
        expect(stats.map((st) => st.version)).toEqual(Array.from({ length: 60 }, (_, i) => (round - 1) * 60 + i + 1));
        const { data } = await big.getData(path);
        expect(data.byteLength).toBe(512 * 1024);
        expect(data.every((b) => b === ((round * 60 + 59) & 0xff))).toBe(true);
      }
    } finally {
      await big.close();
    }
  });

  it('getChildren (with Stat), getAllChildrenNumber, getEphemerals, sync', async () => {
    const dir = `${root}/kids`;
    await zk.create(dir);
    await zk.create(`${dir}/a`);
    await zk.create(`${dir}/b`, null, { mode: 'ephemeral' });
    await zk.create(`${dir}/a/deep`);
    const kids = await zk.getChildren(dir);
    expect(kids.children.sort()).toEqual(['a', 'b']);
    expect(kids.stat.numChildren).toBe(2);
    expect(await zk.getAllChildrenNumber(dir)).toBe(3);
    expect(await zk.getEphemerals(dir)).toEqual([`${dir}/b`]);
    await zk.sync(dir);
    expect(await code(zk.getChildren(`${root}/nope`))).toBe('NO_NODE');
  });

  it('multi: typed results, and MultiError with failedIndex and per-op codes (nothing applied)', async () => {
    const results = await zk.multi([
      { op: 'create', path: `${root}/m`, data: 'a' },
      { op: 'create', path: `${root}/m/s-`, mode: 'persistent-sequential' },
      { op: 'setData', path: `${root}/m`, data: 'b', version: 0 },
      { op: 'check', path: `${root}/m`, version: 1 },
      { op: 'delete', path: `${root}/m/s-0000000000` },
    ]);
    expect(results.map((r) => r.op)).toEqual(['create', 'create', 'setData', 'check', 'delete']);
    expect(results[0]).toMatchObject({ op: 'create', path: `${root}/m` });
    expect(results[1]).toMatchObject({ op: 'create', path: `${root}/m/s-0000000000` });
    const failed = zk.multi([
      { op: 'create', path: `${root}/m2` },
      { op: 'delete', path: `${root}/m`, version: 99 },
      { op: 'create', path: `${root}/m3` },
    ]);
    await expect(failed).rejects.toBeInstanceOf(MultiError);
    const err = (await failed.catch((e: unknown) => e)) as MultiError;
    expect(err.code).toBe('BAD_VERSION');
    expect(err.failedIndex).toBe(1);
    expect(err.results.map((r) => r.code)).toEqual(['OK', 'BAD_VERSION', 'RUNTIME_INCONSISTENCY']);
    expect(await zk.exists(`${root}/m2`)).toBeNull();
    const reads = await zk.multiRead([
      { op: 'getData', path: `${root}/m` },
      { op: 'getChildren', path: `${root}/m` },
      { op: 'getData', path: `${root}/missing` },
    ]);
    expect(reads[0]?.op === 'getData' && text(reads[0].data)).toBe('b');
    expect(reads[1]).toEqual({ op: 'getChildren', children: [] });
    expect(reads[2]?.op === 'error' && reads[2].error.code).toBe('NO_NODE');
  });

  it('watches: exists on a missing node, child watch, removal, checkWatches/NoWatcher', async () => {
    const p = `${root}/w`;
    const ex = await zk.exists(p, { watch: true });
    expect(ex.stat).toBeNull();
    await zk.create(p);
    expect(await ex.watch).toMatchObject({ type: 'created', path: p });
    const kids = await zk.getChildren(p, { watch: true });
    await zk.create(`${p}/k`);
    expect(await kids.watch).toMatchObject({ type: 'childrenChanged', path: p });
    const seen: WatchEvent[] = [];
    const listener = (e: WatchEvent): void => void seen.push(e);
    await zk.getData(p, { watch: listener });
    await zk.getData(p, { watch: listener });
    await zk.checkWatches(p, 'data');
    await zk.removeWatches(p, 'data');
    // Removal notices go through the same ordered path as server events.
    await until(() => seen.length > 0, 2000, 'the removal notice');
    expect(seen).toEqual([{ type: 'dataWatchRemoved', path: p, zxid: -1n }]);
    expect(await code(zk.checkWatches(p, 'data'))).toBe('NO_WATCHER');
    expect(await code(zk.removeWatches(p, 'children'))).toBe('NO_WATCHER');
    // The same listener twice is one registration: it fires once.
    seen.length = 0;
    await zk.getData(p, { watch: listener });
    await zk.getData(p, { watch: listener });
    await zk.setData(p, 'z');
    await zk.sync(p);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([expect.objectContaining({ type: 'dataChanged', path: p })]);
    // deleted fires data, exist and child watches.
    const d = await zk.getData(`${p}/k`, { watch: true });
    const c = await zk.getChildren(`${p}/k`, { watch: true });
    await zk.delete(`${p}/k`);
    expect(await d.watch).toMatchObject({ type: 'deleted' });
    expect(await c.watch).toMatchObject({ type: 'deleted' });
  });

  it('persistent and persistent-recursive watches', async () => {
    const p = `${root}/pw`;
    await zk.create(p);
    await zk.create(`${p}/flat`);
    // One connection has one watch mode per path on the server, so the two kinds watch different nodes.
    const flat = await zk.addWatch(`${p}/flat`, 'persistent');
    const deep = await zk.addWatch(p, 'persistent-recursive');
    const flatEvents: WatchEvent[] = [];
    flat.on((e) => flatEvents.push(e));
    const it = deep[Symbol.asyncIterator]();
    await zk.create(`${p}/a`);
    await zk.create(`${p}/a/b`);
    await zk.setData(`${p}/a/b`, 'x');
    await zk.setData(p, 'y');
    await zk.create(`${p}/flat/kid`);
    await zk.create(`${p}/flat/kid/grandkid`);
    await zk.setData(`${p}/flat`, 'z');
    const got: WatchEvent[] = [];
    for (let i = 0; i < 7; i++) got.push((await it.next()).value as WatchEvent);
    // Recursive: every descendant, never childrenChanged.
    expect(got.map((e) => `${e.type} ${e.path}`)).toEqual([
      `created ${p}/a`,
      `created ${p}/a/b`,
      `dataChanged ${p}/a/b`,
      `dataChanged ${p}`,
      `created ${p}/flat/kid`,
      `created ${p}/flat/kid/grandkid`,
      `dataChanged ${p}/flat`,
    ]);
    // The flat watch sees its own node (children changes included), never the grandchildren.
    expect(flatEvents.map((e) => e.type)).toEqual(['childrenChanged', 'dataChanged']);
    await deep.remove();
    expect((await it.next()).done).toBe(true);
    await flat.remove();
    await zk.setData(`${p}/flat`, 'after removal');
    await zk.sync(p);
    expect(flatEvents).toHaveLength(2);
    expect(await code(zk.checkWatches(p, 'any'))).toBe('NO_WATCHER');
  });

  it('getConfig, reconfig (disabled on this server), mkdirp and removeRecursive', async () => {
    // A standalone server has no dynamic configuration: /zookeeper/config is the empty node ZooKeeper makes at start.
    const sent: { op: string; path: string | undefined }[] = [];
    const onRequest = (m: unknown): void => {
      const msg = m as { op: string; path: string | undefined; sessionId: bigint };
      if (msg.sessionId === zk.sessionId) sent.push({ op: msg.op, path: msg.path });
    };
    const started = tracingChannel(ChannelNames.request).start;
    started.subscribe(onRequest);
    let cfg: Awaited<ReturnType<ZkClient['getConfig']>>;
    try {
      cfg = await zk.getConfig();
    } finally {
      started.unsubscribe(onRequest);
    }
    expect(sent).toEqual([{ op: 'getData', path: '/zookeeper/config' }]);
    expect(text(cfg.data)).toBe('');
    expect(cfg.stat).toMatchObject({ czxid: 0n, mzxid: 0n, version: 0, dataLength: 0, numChildren: 0, ephemeralOwner: 0n });
    expect(cfg).toEqual(await zk.getData('/zookeeper/config'));
    // A chroot does not apply to it (as in the Java client): the same node from a client rooted elsewhere.
    const rooted = await open(`${sharedServer()}${root}`);
    try {
      expect(await rooted.getConfig()).toEqual(cfg);
    } finally {
      await rooted.close();
    }
    expect(await code(zk.admin.reconfig({ leaving: '99' }))).toBe('RECONFIG_DISABLED');
    await zk.mkdirp(`${root}/x/y/z`);
    expect(await zk.exists(`${root}/x/y/z`)).not.toBeNull();
    await zk.mkdirp(`${root}/x/y/z`);
    await zk.removeRecursive(`${root}/x`);
    expect(await zk.exists(`${root}/x`)).toBeNull();
  });
});

describe('bad input', () => {
  it('is refused with typed errors before anything reaches the wire', async () => {
    const zk = await open(sharedServer());
    const sent: unknown[] = [];
    const onRequest = (m: unknown): void => {
      if ((m as { sessionId: bigint }).sessionId === zk.sessionId) sent.push(m);
    };
    // Every request the API sends starts a trace; a refused argument must not get that far.
    const requests = tracingChannel(ChannelNames.request);
    requests.start.subscribe(onRequest);
    try {
      const attempts: Promise<unknown>[] = [
        zk.create('no-slash'),
        zk.create('/a/../b'),
        zk.create('/x', null, { acl: [] }),
        zk.create('/x', null, { acl: [{ perms: 99, id: { scheme: 'world', id: 'anyone' } }] }),
        zk.create('/x', null, { acl: [{ perms: 31, id: { scheme: 'digest', id: 'plain' } }] }),
        zk.create('/x', new Uint8Array(0x100000)),
        zk.setData('/x', 'v', { version: -3 }),
        zk.create('/x', null, { mode: 'persistent-ttl', ttl: -1 }),
      ];
      for (const a of attempts) await expect(a).rejects.toBeInstanceOf(InvalidArgumentError);
      expect(sent).toEqual([]);
    } finally {
      requests.start.unsubscribe(onRequest);
      await zk.close();
    }
  });
});

describe('chroot', () => {
  const base = uniqueRoot('chroot');
  let admin: ZkClient;
  let zk: ZkClient;

  beforeAll(async () => {
    admin = await open(sharedServer());
    await admin.create(base);
    zk = await open(`${sharedServer()}${base}`);
  });
  afterAll(async () => {
    await zk.close();
    await admin.removeRecursive(base);
    // A sibling that only shares the chroot's string prefix.
    await admin.removeRecursive(`${base}x`);
    await admin.close();
  });

  it('strips the chroot from every returned path', async () => {
    expect(zk.chroot).toBe(base);
    const c = await zk.create('/a', 'v');
    expect(c.path).toBe('/a');
    expect((await admin.getData(`${base}/a`)).data.byteLength).toBe(1);
    const s = await zk.create('/s-', null, { mode: 'ephemeral-sequential' });
    expect(s.path).toMatch(/^\/s-\d{10}$/);
    const multi = await zk.multi([{ op: 'create', path: '/m' }, { op: 'create', path: '/m/q-', mode: 'persistent-sequential' }]);
    expect(multi[0]).toMatchObject({ path: '/m' });
    expect(multi[1]).toMatchObject({ path: '/m/q-0000000000' });
    expect((await zk.getChildren('/')).children.sort()).toEqual(['a', 'm', s.path.slice(1)].sort());
    // Ephemerals: only ours, only under the chroot (an ephemeral at '<chroot>x' matches the string prefix).
    await admin.create(`${base}x`);
    await zk.create('/e', null, { mode: 'ephemeral' });
    expect((await zk.getEphemerals('/')).sort()).toEqual(['/e', s.path].sort());
    expect(await zk.getEphemerals('/e')).toEqual(['/e']);
    // Events.
    const w = await zk.getData('/a', { watch: true });
    const rec = await zk.addWatch('/', 'persistent-recursive');
    const it = rec[Symbol.asyncIterator]();
    await admin.setData(`${base}/a`, 'changed');
    expect(await w.watch).toMatchObject({ type: 'dataChanged', path: '/a' });
    expect((await it.next()).value).toMatchObject({ type: 'dataChanged', path: '/a' });
    await rec.remove();
    // Errors carry the client path.
    const err = await zk.getData('/missing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as ServerError).path).toBe('/missing');
    await zk.removeRecursive('/m');
    expect(await zk.exists('/m')).toBeNull();
  });
});
