// Network faults through the testkit's fault proxy in front of the shared server: frozen peers, lost
// replies, cuts mid-transaction, partitions long enough to expire, and watch replay after reconnects. The client's
// timers run on a manual clock where a test measures them, so no wall-clock window depends on the machine's load.
import { tracingChannel } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startFaultProxy, type FaultProxy } from '@zkts/testkit';
import { Acls, ChannelNames, ConnectionLossError, exponentialBackoff, type RetryPolicy, SessionExpiredError, createClient, digestId, type ClientOptions, type StateChange, type ZkClient } from '@zkts/protocol';
import { OpCode } from '../../src/codec/records/constants.js';
import { FrameRelay } from '../support/frame-relay.js';
import { hostPort, open, sharedServer, uniqueRoot, until, waitForState } from '../support/integration.js';

/** Moves `clock` forward in 10 ms steps as real time passes until `done` holds (a real-time deadline). */
async function driveUntil(clock: ManualClock, done: () => boolean, timeout: number, what: string): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await clock.advanceAsync(10);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('faults through a proxy', () => {
  const root = uniqueRoot();
  let proxy: FaultProxy;
  let direct: ZkClient;
  const clients: ZkClient[] = [];

  async function viaProxy(sessionTimeout = 4000, options: ClientOptions = {}): Promise<ZkClient> {
    const c = await open(proxy.connectString, { sessionTimeout, ...options });
    clients.push(c);
    return c;
  }

  beforeAll(async () => {
    proxy = await startFaultProxy(hostPort(sharedServer()));
    direct = await open(sharedServer());
    await direct.create(root);
  });
  afterEach(async () => {
    proxy.restore();
    for (const c of clients.splice(0)) await c.close();
  });
  afterAll(async () => {
    await direct.removeRecursive(root);
    await direct.close();
    await proxy.close();
  });

  it('a frozen server is detected exactly at the read timeout (client clock); the session re-attaches; queued requests complete', async () => {
    // The client's timers run on a manual clock, so the read timeout is checked to the millisecond whatever the
    // machine's load; the server's session timer runs on real time, and the test takes a few hundred ms of it.
    const clock = new ManualClock();
    const zk = await viaProxy(6000, { clock });
    expect(zk.negotiatedTimeout).toBe(6000);
    const id = zk.sessionId;
    const changes: StateChange[] = [];
    zk.onStateChange((c) => changes.push(c));
    proxy.blackhole();
    // Last heard at the handshake (clock time 0 of this test): the read timeout, 2/3 of 6000 ms, is due at 4000.
    await clock.advanceAsync(3999);
    expect(zk.state).toBe('connected');
    await clock.advanceAsync(1);
    await waitForState(zk, 'suspended', 5000);
    expect(changes[0]?.error?.message).toBe(`nothing heard from ${proxy.connectString} for 4000 ms (read timeout 4000 ms)`);
    const queued = zk.create(`${root}/queued`);
    proxy.restore();
    // How long the redial takes is not the point here: let the client's clock follow real time until it is back.
    await driveUntil(clock, () => zk.state === 'connected', 10_000, 'the reconnect');
    expect(zk.sessionId).toBe(id);
    await expect(queued).resolves.toMatchObject({ path: `${root}/queued` });
    expect(changes.map((c) => c.state)).toEqual(['suspended', 'connected']);
  });

  it('requests in flight at a cut fail with ConnectionLoss (outcome unknown); whileSuspended: fail fails fast', async () => {
    const zk = await open(proxy.connectString, { sessionTimeout: 4000, whileSuspended: 'fail' });
    clients.push(zk);
    proxy.blackhole();
    const inFlight = zk.getData(root);
    await new Promise((r) => setTimeout(r, 100));
    proxy.cut();
    const err = await inFlight.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionLossError);
    expect((err as ConnectionLossError).outcomeUnknown).toBe(true);
    await waitForState(zk, 'suspended', 1000).catch(() => undefined);
    if (zk.state === 'suspended') {
      const fast = await zk.getData(root).catch((e: unknown) => e);
      expect(fast).toBeInstanceOf(ConnectionLossError);
      expect((fast as ConnectionLossError).outcomeUnknown).toBe(false);
    }
    proxy.restore();
    await waitForState(zk, 'connected', 6000);
    // The same node as seen by a client that was never cut (nothing else writes under root meanwhile).
    expect((await zk.getData(root)).stat).toEqual(await direct.exists(root));
  });

  it('credentials (options.auth and addAuth) are replayed after a reconnect', async () => {
    const zk = await open(proxy.connectString, { sessionTimeout: 4000, auth: [{ scheme: 'digest', auth: 'opt:pw' }] });
    clients.push(zk);
    await zk.addAuth('digest', 'added:pw');
    await zk.create(`${root}/authed`, null, { acl: Acls.creatorAll() });
    const ids = (await zk.getACL(`${root}/authed`)).acl.map((a) => a.id.id).sort();
    expect(ids).toEqual([digestId('added', 'pw'), digestId('opt', 'pw')].sort());
    proxy.cut();
    await waitForState(zk, 'suspended', 2000).catch(() => undefined);
    await waitForState(zk, 'connected', 6000);
    await zk.setData(`${root}/authed`, 'still mine');
    // whoAmI also lists the ip identity every connection has.
    expect((await zk.whoAmI()).filter((w) => w.authScheme === 'digest').map((w) => w.user).sort()).toEqual(['added', 'opt']);
    await zk.setACL(`${root}/authed`, Acls.openUnsafe());
  });

  it('a lost create reply: ConnectionLossError(outcomeUnknown), the node exists, nothing was retried', async () => {
    const zk = await viaProxy();
    const requests: unknown[] = [];
    const onRequest = (m: unknown): void => void requests.push(m);
    const started = tracingChannel(ChannelNames.request).start;
    started.subscribe(onRequest);
    try {
      proxy.dropNextReply();
      const err = await zk.create(`${root}/lost-`, 'x', { mode: 'persistent-sequential' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectionLossError);
      expect((err as ConnectionLossError).outcomeUnknown).toBe(true);
      await waitForState(zk, 'connected', 6000);
      const kids = (await direct.getChildren(root)).children.filter((c) => c.startsWith('lost-'));
      expect(kids).toHaveLength(1);
      const creates = requests.filter((m) => (m as { op: string; sessionId: bigint }).op === 'create' && (m as { sessionId: bigint }).sessionId === zk.sessionId);
      expect(creates).toHaveLength(1);
    } finally {
      started.unsubscribe(onRequest);
    }
  });

  it('a cut during a multi leaves all or nothing', async () => {
    const zk = await viaProxy();
    for (let round = 0; round < 5; round++) {
      const base = `${root}/tx${round}`;
      const ops = Array.from({ length: 20 }, (_, i) => ({ op: 'create' as const, path: i === 0 ? base : `${base}/n${i}`, data: 'x'.repeat(1000) }));
      const pending = zk.multi(ops).then(
        () => 'ok',
        (e: unknown) => e,
      );
      proxy.cut();
      const outcome = await pending;
      await waitForState(zk, 'connected', 6000);
      const exists = (await direct.exists(base)) !== null;
      if (exists) expect((await direct.getChildren(base)).children).toHaveLength(19);
      if (outcome === 'ok') expect(exists).toBe(true);
      else expect(outcome).toBeInstanceOf(ConnectionLossError);
    }
  });

  it('watches set before a disconnect fire for a change made while the client was away', async () => {
    const zk = await viaProxy();
    await direct.create(`${root}/away`, 'v0');
    const data = await zk.getData(`${root}/away`, { watch: true });
    const missing = await zk.exists(`${root}/away-new`, { watch: true });
    const kids = await zk.getChildren(`${root}/away`, { watch: true });
    const persistent = await zk.addWatch(`${root}/away`, 'persistent');
    const it = persistent[Symbol.asyncIterator]();
    // Cut, and hold the reconnect attempts in a blackhole while another client makes the changes.
    proxy.blackhole();
    proxy.cut();
    await waitForState(zk, 'suspended', 2000);
    await direct.setData(`${root}/away`, 'v1');
    await direct.create(`${root}/away-new`);
    proxy.restore();
    await waitForState(zk, 'connected', 6000);
    expect(await data.watch).toMatchObject({ type: 'dataChanged', path: `${root}/away` });
    expect(await missing.watch).toMatchObject({ type: 'created', path: `${root}/away-new` });
    // The persistent watch on the same path hears the missed change too, but not from a replay for it: the server
    // fired the one-shot data watch at SetWatches2 (the node changed after the last zxid the client saw), and the
    // client hands a notification to every watcher of its path, persistent ones included, as the Java client does.
    // Alone, a persistent watch hears nothing of what changed while away (next test).
    expect((await it.next()).value).toMatchObject({ type: 'dataChanged', path: `${root}/away` });
    await direct.create(`${root}/away/kid`);
    expect(await kids.watch).toMatchObject({ type: 'childrenChanged' });
    expect((await it.next()).value).toMatchObject({ type: 'childrenChanged', path: `${root}/away` });
    await persistent.remove();
  });

  it('a persistent watch alone is re-added after a reconnect, but what changed while away is not replayed to it', async () => {
    const zk = await viaProxy();
    const path = `${root}/persistent-away`;
    await direct.create(path, 'v0');
    // No one-shot watch anywhere on this path: only the persistent one can bring events for it.
    const persistent = await zk.addWatch(path, 'persistent');
    const it = persistent[Symbol.asyncIterator]();
    proxy.blackhole();
    proxy.cut();
    await waitForState(zk, 'suspended', 2000);
    await direct.setData(path, 'v1');
    proxy.restore();
    await waitForState(zk, 'connected', 6000);
    // A round trip of ours is answered after the SetWatches2 sent first on the new connection: the watch is back.
    await zk.sync(path);
    await direct.create(`${path}/kid`);
    // ZooKeeper's DataTree.setWatches fires a one-shot data or child watch whose node changed past the client's
    // last zxid, but only re-adds persistent ones. Had it replayed the missed setData, that event would come first
    // (notifications arrive in zxid order); the first one is the child created after the reconnect.
    expect((await it.next()).value).toMatchObject({ type: 'childrenChanged', path });
    await direct.setData(path, 'v2');
    expect((await it.next()).value).toMatchObject({ type: 'dataChanged', path });
    await persistent.remove();
  });

  it('a partition longer than 4/3 of the timeout is reported as expiry by the client itself, exactly then (client clock)', async () => {
    const clock = new ManualClock();
    const zk = await viaProxy(3000, { renewSession: false, clock });
    expect(zk.negotiatedTimeout).toBe(3000);
    const watch = (await zk.exists(`${root}/never`, { watch: true })).watch;
    proxy.blackhole();
    // Last heard at the exists reply (clock time 0): suspended at the read timeout (2000), expired at 4/3 × 3000.
    // Redials meanwhile reach only the blackhole, and a handshake left unanswered is no server contact.
    await clock.advanceAsync(3999);
    expect(zk.state).toBe('suspended');
    await clock.advanceAsync(1);
    await waitForState(zk, 'expired', 5000);
    await expect(watch).rejects.toBeInstanceOf(SessionExpiredError);
    await expect(zk.getData(root)).rejects.toBeInstanceOf(SessionExpiredError);
    // Never a replacement session, though the server (its own clock: real time) still holds the old one: the path
    // is back and a minute passes on the client's clock, and the client has no timer left that could dial.
    proxy.restore();
    await clock.advanceAsync(60_000);
    expect(zk.state).toBe('expired');
    expect(clock.pending).toBe(0);
  });

  it('a session closed by another connection (same id + password) is reported as expired', async () => {
    const zk = await viaProxy(4000, { renewSession: false });
    // Hold zk's reconnects so the thief's session take-over and close cannot race with zk taking it back.
    proxy.blackhole();
    const thief = createClient(sharedServer(), { sessionTimeout: 4000, sessionId: zk.sessionId, sessionPassword: zk.sessionPassword });
    await thief.connect();
    expect(thief.sessionId).toBe(zk.sessionId);
    await thief.close();
    proxy.restore();
    await waitForState(zk, 'expired', 10_000);
    await expect(zk.connected()).rejects.toBeInstanceOf(SessionExpiredError);
  });

  it('10,000 watches are replayed in several SetWatches batches and all fire', async () => {
    // A frame relay rather than the proxy: it sees each frame's opcode (SetWatches is the session's own
    // request, which no channel traces).
    const relay = await FrameRelay.start(hostPort(sharedServer()));
    const zk = await open(relay.connectString, { sessionTimeout: 10_000 });
    try {
      await replayTenThousand(zk, relay);
    } finally {
      await zk.close();
      await relay.close();
    }
  });

  async function replayTenThousand(zk: ZkClient, relay: FrameRelay): Promise<void> {
    const dir = `${root}/${'many'.repeat(10)}`;
    await direct.create(dir);
    const count = 10_000;
    const paths = Array.from({ length: count }, (_, i) => `${dir}/node-with-a-fairly-long-name-${i}`);
    // In chunks, so a loaded server never has thousands outstanding. Wrapped: an async function returning
    // the watch promise itself would wait for the watch to fire.
    const watches: Promise<unknown>[] = [];
    for (let i = 0; i < count; i += 1000) {
      const chunk = await Promise.all(paths.slice(i, i + 1000).map(async (p) => ({ w: (await zk.exists(p, { watch: true })).watch })));
      for (const x of chunk) watches.push(x.w);
    }
    relay.cut();
    await waitForState(zk, 'suspended', 2000).catch(() => undefined);
    await waitForState(zk, 'connected', 10_000);
    // Its reply means the relay has seen every frame written before it: the SetWatches batches come first.
    await zk.sync('/');
    const batches = relay.frames.filter((f) => f.conn > 1 && f.dir === 'c2s' && (f.type === OpCode.setWatches || f.type === OpCode.setWatches2));
    // ~75 bytes per path × 10,000 ≈ 750 KB of paths: at least 5 batches of ≤ 128 KB.
    expect(batches.length).toBeGreaterThanOrEqual(5);
    expect(new Set(batches.map((f) => f.type))).toEqual(new Set([OpCode.setWatches]));
    let fired = 0;
    for (const w of watches) void w.then(() => fired++);
    for (let i = 0; i < count; i += 500) {
      await direct.multi(paths.slice(i, i + 500).map((p) => ({ op: 'create' as const, path: p })));
    }
    await until(() => fired === count, 20_000, `all ${count} watches (${fired} fired)`);
    for (let i = 0; i < count; i += 500) {
      await direct.multi(paths.slice(i, i + 500).map((p) => ({ op: 'delete' as const, path: p })));
    }
  }
});

describe('retry policies against a proxy that cuts every try', () => {
  let proxy: FaultProxy;
  let direct: ZkClient;
  const root = uniqueRoot('retry');

  beforeAll(async () => {
    proxy = await startFaultProxy(hostPort(sharedServer()));
    direct = await open(sharedServer());
    await direct.create(root, 'value');
  });
  afterAll(async () => {
    await direct.removeRecursive(root);
    await direct.close();
    await proxy.close();
  });

  /** Every getData reaching the server has its reply swallowed and the connection cut, `cuts` times. */
  async function readThroughCuts(cuts: number, retry: RetryPolicy): Promise<{ result: unknown; tries: number }> {
    const zk = await open(proxy.connectString, { sessionTimeout: 10_000 });
    let tries = 0;
    const onRequest = (m: unknown): void => {
      const msg = m as { op: string; sessionId: bigint };
      if (msg.sessionId !== zk.sessionId || msg.op !== 'getData') return;
      tries++;
      // Published as each try starts, before its bytes reach the proxy: this arms the cut for this try.
      if (tries <= cuts) proxy.dropNextReply();
    };
    const started = tracingChannel(ChannelNames.request).start;
    started.subscribe(onRequest);
    try {
      const result = await zk.getData(root, { retry }).then(
        (r) => new TextDecoder().decode(r.data),
        (e: unknown) => e,
      );
      return { result, tries };
    } finally {
      started.unsubscribe(onRequest);
      proxy.restore();
      await zk.close();
    }
  }

  it('a read cut 5 times in a row succeeds on the 6th try', async () => {
    const { result, tries } = await readThroughCuts(5, exponentialBackoff({ baseDelay: 20, maxRetries: 10 }));
    expect(result).toBe('value');
    expect(tries).toBe(6);
  });

  it('gives up with the last connection loss once the policy says so', async () => {
    const { result, tries } = await readThroughCuts(5, exponentialBackoff({ baseDelay: 20, maxRetries: 3 }));
    expect(result).toBeInstanceOf(ConnectionLossError);
    expect((result as ConnectionLossError).outcomeUnknown).toBe(true);
    expect(tries).toBe(4);
  });

  it('a write is never retried, whatever the policy', async () => {
    const zk = await open(proxy.connectString, { sessionTimeout: 10_000, retry: exponentialBackoff({ baseDelay: 20 }) });
    try {
      proxy.dropNextReply();
      await expect(zk.create(`${root}/once`, 'x')).rejects.toBeInstanceOf(ConnectionLossError);
      // The create was applied (its reply was lost) and not sent again: exactly one node, version 0.
      await until(async () => (await direct.exists(`${root}/once`)) !== null, 5000, 'the applied create');
    } finally {
      proxy.restore();
      await zk.close();
    }
  });
});
