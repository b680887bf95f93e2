// The client's diagnostics channels against the real server: a getData's trace (bytes on the wire included), a
// multi, a failed create, a request through a chroot, a reconnect and an expiry with its renewal (connection
// and session channels, and the one log line each), and a watch event with its delivery delay.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '@zkts/testkit';
import { ChannelNames, ZkError, type ClientOptions, type ZkClient } from '@zkts/protocol';
import { hostPort, open, sharedServer, uniqueRoot, until, waitForState } from '../support/integration.js';
import { observeChannels, recordingLogger } from '../support/observe.js';

const root = uniqueRoot('obs');
const server = (() => {
  const { host, port } = hostPort(sharedServer());
  return `${host}:${port}`;
})();
const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const clients: ZkClient[] = [];
let direct: ZkClient;
let observed: ReturnType<typeof observeChannels>;

beforeAll(async () => {
  direct = await open(sharedServer());
  await direct.create(root, 'root');
});
afterEach(async () => {
  observed?.stop();
  for (const c of clients.splice(0)) await c.close();
});
afterAll(async () => {
  await direct.removeRecursive(root);
  await direct.close();
});

async function client(connectString: string, options: ClientOptions = {}): Promise<ZkClient> {
  const c = await open(connectString, options);
  clients.push(c);
  return c;
}

describe('zkts:request against the real server', () => {
  it('getData: one trace, its fields as the server saw the request, its reply size to the byte', async () => {
    const zk = await client(sharedServer());
    const path = `${root}/get`;
    await zk.create(path, 'hello');
    observed = observeChannels();
    const { data } = await zk.getData(path);
    const events = observed.published.filter((p) => p.name.startsWith('tracing:'));
    expect(events.map((p) => p.name.split(':').pop())).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    const trace = events[3]?.message;
    expect(events.every((p) => p.message === trace)).toBe(true);
    expect(events[0]?.seen).toMatchObject({ op: 'getData', path, xid: -1, bytesOut: 0, server: undefined });
    expect(trace).toMatchObject({
      op: 'getData',
      path,
      sessionId: zk.sessionId,
      server,
      attempt: 1,
      retried: false,
      ops: undefined,
      errorCode: undefined,
      result: { data },
      // Length prefix + RequestHeader + GetDataRequest (path, watch flag).
      bytesOut: 4 + 8 + 4 + bytes(path) + 1,
      // Length prefix + ReplyHeader + the data + a Stat (68 bytes).
      bytesIn: 4 + 16 + 4 + 5 + 68,
    });
    expect(trace?.xid).toBeGreaterThan(0);
  });

  it('multi: the sub-operations in order, no path; a failed create: error before asyncStart, with its code', async () => {
    const zk = await client(sharedServer());
    observed = observeChannels();
    await zk.multi([
      { op: 'create', path: `${root}/m` },
      { op: 'setData', path: `${root}/m`, data: 'x' },
      { op: 'check', path: `${root}/m`, version: 1 },
      { op: 'delete', path: `${root}/m` },
    ]);
    await zk.create(`${root}/dup`);
    await expect(zk.create(`${root}/dup`)).rejects.toMatchObject({ code: 'NODE_EXISTS' });
    const [multi, , failed] = observed.traces();
    expect(multi).toMatchObject({ op: 'multi', path: undefined, ops: ['create', 'setData', 'check', 'delete'], errorCode: undefined });
    expect(multi?.result).toHaveLength(4);
    expect(failed).toMatchObject({ op: 'create', path: `${root}/dup`, errorCode: 'NODE_EXISTS' });
    expect(failed?.error).toBeInstanceOf(ZkError);
    const failedEvents = observed.published.filter((p) => p.message === (failed as unknown)).map((p) => p.name.split(':').pop());
    expect(failedEvents).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
  });

  it('through a chroot the trace has the path the server sees', async () => {
    await direct.create(`${root}/chroot`);
    await direct.create(`${root}/chroot/x`, 'in');
    const zk = await client(`${sharedServer()}${root}/chroot`);
    observed = observeChannels();
    await zk.getData('/x');
    expect(observed.traces()).toEqual([expect.objectContaining({ op: 'getData', path: `${root}/chroot/x` })]);
  });
});

describe('reconnect and expiry through a proxy', () => {
  let proxy: FaultProxy;
  beforeAll(async () => {
    proxy = await startFaultProxy(hostPort(sharedServer()));
  });
  afterEach(() => proxy.restore());
  afterAll(async () => {
    await proxy.close();
  });

  it('a cut connection: closed (with its cause), dialing (lost, the delay waited), connected; one warn line says it all', async () => {
    const { logger, lines } = recordingLogger();
    const zk = await client(proxy.connectString, { reconnectDelay: { min: 30, max: 60 }, logger });
    const id = `0x${zk.sessionId.toString(16)}`;
    const via = proxy.connectString;
    observed = observeChannels();
    proxy.cut();
    await waitForState(zk, 'suspended', 2000).catch(() => undefined);
    await waitForState(zk, 'connected', 10_000);
    const conns = observed.of(ChannelNames.connection).filter((m) => m.server === via);
    expect(conns.map((m) => m.event)).toEqual(['closed', 'dialing', 'connected']);
    expect(conns[0]).toEqual({ sessionId: zk.sessionId, event: 'closed', server: via, cause: { code: 'CONNECTION_LOSS', message: expect.any(String) } });
    expect(conns[1]).toMatchObject({ sessionId: zk.sessionId, event: 'dialing', reason: 'lost' });
    expect(conns[1]?.delayMs).toBeGreaterThanOrEqual(30);
    expect(conns[1]?.delayMs).toBeLessThanOrEqual(60);
    const states = observed.of(ChannelNames.state).filter((m) => m.sessionId === zk.sessionId);
    expect(states.map((m) => `${m.from}→${m.to}`)).toEqual(['connected→suspended', 'suspended→connected']);
    expect(states[0]?.cause).toMatchObject({ code: 'CONNECTION_LOSS' });
    // The reconnect in one warn line: the server, the cause, the wait, the session.
    const warn = lines.filter(([level]) => level === 'warn');
    expect(warn).toHaveLength(1);
    expect(warn[0]?.[1]).toMatch(new RegExp(`^zkts: connection to ${via} closed: .+; reconnecting in (3\\d|4\\d|5\\d|60) ms \\(session ${id}\\)$`));
    expect(warn[0]?.[2]).toMatchObject({ server: via, code: 'CONNECTION_LOSS', reason: 'lost', sessionId: id });
    expect(lines.some(([level, message]) => level === 'info' && message.startsWith(`zkts: reconnected to ${via} after `) && message.includes(`session ${id}`))).toBe(true);
    // Nothing at all on the request path: no line for a request.
    const before = lines.length;
    await zk.getData(root);
    expect(lines.length).toBe(before);
  });

  it('an expiry with renewal: expired, then renewed with the previous id; the dial after it says expired; one line each', async () => {
    const { logger, lines } = recordingLogger();
    const zk = await client(proxy.connectString, { sessionTimeout: 2000, reconnectDelay: { min: 10, max: 20 }, logger });
    const old = zk.sessionId;
    observed = observeChannels();
    proxy.blackhole();
    await waitForState(zk, 'expired', 8000);
    proxy.restore();
    await until(() => zk.state === 'connected' && zk.sessionId !== old, 15_000, 'the renewed session');
    const sessions = observed.of(ChannelNames.session).filter((m) => m.sessionId === old || m.sessionId === zk.sessionId);
    expect(sessions).toEqual([
      { event: 'expired', sessionId: old, timeoutMs: zk.negotiatedTimeout },
      { event: 'renewed', sessionId: zk.sessionId, previousSessionId: old, timeoutMs: zk.negotiatedTimeout },
    ]);
    const dials = observed.of(ChannelNames.connection).filter((m) => m.event === 'dialing' && m.server === proxy.connectString);
    expect(dials.map((m) => m.reason)).toContain('expired');
    const hex = (n: bigint): string => `0x${n.toString(16)}`;
    const expiredLines = lines.filter(([, message]) => message.includes(`session ${hex(old)} expired`));
    expect(expiredLines).toEqual([['warn', expect.stringMatching(/client-side expiry.*opening a new session/), expect.objectContaining({ renewing: true, code: 'SESSION_EXPIRED' })]]);
    expect(lines.filter(([level, message]) => level === 'info' && message === `zkts: session ${hex(old)} renewed as ${hex(zk.sessionId)} on ${proxy.connectString} (timeout ${zk.negotiatedTimeout} ms)`)).toHaveLength(1);
  });
});

describe('zkts:event', () => {
  it('a watch event: its server path, zxid and the delay from its frame to its listener', async () => {
    const zk = await client(`${sharedServer()}${root}`);
    await direct.create(`${root}/watched`, 'a');
    const { watch } = await zk.getData('/watched', { watch: true });
    observed = observeChannels();
    await direct.setData(`${root}/watched`, 'b');
    expect(await watch).toMatchObject({ type: 'dataChanged', path: '/watched' });
    const events = observed.of(ChannelNames.event).filter((m) => m.sessionId === zk.sessionId);
    // The zxid is the notification frame's: ZooKeeper 3.8 sends -1 there.
    expect(events).toEqual([{ sessionId: zk.sessionId, type: 'dataChanged', path: `${root}/watched`, zxid: -1n, deliveryDelayMs: expect.any(Number) }]);
    expect(events[0]?.deliveryDelayMs).toBeGreaterThanOrEqual(0);
    expect(events[0]?.deliveryDelayMs).toBeLessThan(1000);
  });
});
