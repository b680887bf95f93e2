// Network faults through the testkit's fault proxy in front of the shared server: frozen peers, lost
// replies, cuts mid-transaction, partitions long enough to expire, and watch replay after reconnects.
import { tracingChannel } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '@zkts/testkit';
import { Acls, ChannelNames, ConnectionLossError, exponentialBackoff, type RetryPolicy, SessionExpiredError, createClient, digestId, type ClientOptions, type StateChange, type ZkClient } from '@zkts/protocol';
import { OpCode } from '../../src/codec/records/constants.js';
import { FrameRelay } from '../support/frame-relay.js';
import { hostPort, open, sharedServer, uniqueRoot, until, waitForState } from '../support/integration.js';

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

  it('a frozen server is detected by the read timeout; the session re-attaches; queued requests complete', async () => {
    const zk = await viaProxy();
    const id = zk.sessionId;
    const changes: StateChange[] = [];
    zk.onStateChange((c) => changes.push(c));
    const started = Date.now();
    proxy.blackhole();
    await waitForState(zk, 'suspended', 6000);
    const detected = Date.now() - started;
    // read timeout = 2/3 of the negotiated timeout (4 s), plus one timer tick.
    expect(detected).toBeGreaterThanOrEqual(2000);
    expect(detected).toBeLessThan(4000);
    const queued = zk.create(`${root}/queued`);
    proxy.restore();
    await waitForState(zk, 'connected', 6000);
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
    expect((await zk.getData(root)).stat).toBeDefined();
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
    // The persistent watch is re-set too (SetWatches2) and sees changes after the reconnect.
    // Persistent watches are replayed with SetWatches2, so the change made while away reaches them too.
    expect((await it.next()).value).toMatchObject({ type: 'dataChanged', path: `${root}/away` });
    await direct.create(`${root}/away/kid`);
    expect(await kids.watch).toMatchObject({ type: 'childrenChanged' });
    expect((await it.next()).value).toMatchObject({ type: 'childrenChanged', path: `${root}/away` });
    await persistent.remove();
  });

  it('a partition longer than 4/3 of the timeout is reported as expiry by the client itself', async () => {
    const zk = await viaProxy(2000, { renewSession: false });
    const watch = (await zk.exists(`${root}/never`, { watch: true })).watch;
    const started = Date.now();
    proxy.blackhole();
    await waitForState(zk, 'expired', 8000);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(2000 * (4 / 3) - 200);
    expect(elapsed).toBeLessThan(5000);
    await expect(watch).rejects.toBeInstanceOf(SessionExpiredError);
    await expect(zk.getData(root)).rejects.toBeInstanceOf(SessionExpiredError);
    // Never a replacement session.
    proxy.restore();
    await new Promise((r) => setTimeout(r, 500));
    expect(zk.state).toBe('expired');
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
