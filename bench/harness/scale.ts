// The rows at scale: many sessions in one process, a watch replay after a reconnect, a 1 MiB reply and a
// 100,000-child listing. Like workloads.ts, each is written once against BenchSession so the Node clients run
// the same code; bench/java/ZkBench.java mirrors them for the Java client.
//
// Two of them use things the harness (run.ts) prepares: `fixture`, a node with `fixtureChildren` children
// (c000000, c000001, …) created once per run, and, for watchReplay, a proxy between the client and the server
// whose control port cuts the connection and changes every child while the client is away
// (replay-proxy.ts).
import { connect as netConnect } from 'node:net';

import { measure, pipeline, quantile, settledHeap, sleep, until, youngGeneration } from './measure.js';
import { ControlClient } from './replay-proxy.js';
import type { BenchSession, ConnectOptions } from './session.js';
import { call } from './session.js';
import type { Metrics, ScaleParams, WorkloadContext } from './workloads.js';

/** Frames up to 4 MiB: the server runs with jute.maxbuffer raised to that (run.ts), the clients follow. */
export const MAX_PACKET = 4 * 1024 * 1024;
const BIG: ConnectOptions = { maxPacket: MAX_PACKET };

/** The fixture's i-th child: c000000 … (fixed width, so every path has the same length). */
export function childName(i: number): string {
  return `c${String(i).padStart(6, '0')}`;
}

function scaleOf(ctx: WorkloadContext): ScaleParams {
  if (!ctx.params.scale) throw new Error('no parameters for the rows at scale (params.scale)');
  return ctx.params.scale;
}

function fixtureOf(ctx: WorkloadContext): string {
  if (!ctx.fixture) throw new Error('this workload needs the harness fixture (a node with many children)');
  return ctx.fixture;
}

/** The server's count of packets received (four-letter word `srvr`), or NaN when it does not answer. */
function serverPacketsReceived(connectString: string): Promise<number> {
  const [host = '127.0.0.1', port = '2181'] = (connectString.split(',')[0] ?? '').split(':');
  return new Promise((resolve) => {
    let text = '';
    const socket = netConnect({ host, port: Number(port) }, () => socket.write('srvr'));
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    socket.on('error', () => resolve(Number.NaN));
    socket.on('close', () => resolve(Number(/Received: (\d+)/.exec(text)?.[1] ?? Number.NaN)));
    socket.setTimeout(5000, () => socket.destroy());
  });
}

function rss(): number {
  return process.memoryUsage().rss;
}

/** Below this the young generation counts as given back (an idle process keeps about 1 MiB of it). */
const YOUNG_GIVEN_BACK = 2 * 1024 * 1024;

/** How long after the young generation is back RSS is read (see youngGenerationGivenBack). */
const UNMAP_WAIT_MS = 2000;

/**
 * Waits until V8 has given back the young generation the connects grew (no larger than before them, or than
 * YOUNG_GIVEN_BACK), at most `capMs`, then until its pages have left RSS; resolves with how long the first part
 * took, NaN at the cap. V8 shrinks it in a collection made while the process allocates little.
 */
async function youngGenerationGivenBack(before: number, capMs: number): Promise<number> {
  const t0 = performance.now();
  while (youngGeneration() > Math.max(before, YOUNG_GIVEN_BACK)) {
    if (performance.now() - t0 >= capMs) return Number.NaN;
    await sleep(250);
  }
  const givenBack = performance.now() - t0;
  // V8's heap statistics drop the freed pages at once, but a background thread unmaps them: RSS read at this
  // moment still held 10-18 MB of them in 3 of 23 processes (bench/README.md, "RSS and the young generation").
  await sleep(UNMAP_WAIT_MS);
  return givenBack;
}

/**
 * `sessions` sessions in this one process (up to `connectWindow` handshakes in flight, as a pool filling up
 * would): the time to connect them all, the heap and RSS each idle session costs, and the CPU the process
 * spends per second while they only ping. RSS is taken 1 s after the last connect (`rssPerSessionConnected`),
 * at the end of the idle window (`rssPerSession`: whether V8 had given back the young generation the connects
 * grew by then is its timing, not what the sessions keep), and after two full collections at the window's end
 * (`rssPerSessionSettled`, the young generation's own resident bytes left out at both ends), as the heap figure
 * is taken: every client's process gets the same collections, instead of whichever V8 happened to run. The
 * server's packet counter over the idle window says how many pings that was.
 */
export async function sessions1k(ctx: WorkloadContext): Promise<Metrics> {
  const { sessions: n, connectWindow, idleMs, settleCapMs } = scaleOf(ctx);
  const open: BenchSession[] = [];
  const heap0 = settledHeap();
  const rss0 = rss();
  const young0 = youngGeneration();
  const connected = await measure(() =>
    pipeline(n, connectWindow, (_i, done) =>
      ctx.client.connect(ctx.connectString).then((s) => {
        open.push(s);
        done(null);
      }, done),
    ),
  );
  let metrics: Metrics | undefined;
  let closeMs = Number.NaN;
  try {
    // Let the handshakes' garbage go and every session's timers settle into their idle rhythm.
    await sleep(1000);
    const heap1 = settledHeap();
    const rss1 = rss();
    const received0 = await serverPacketsReceived(ctx.connectString);
    const idle = await measure(() => sleep(idleMs));
    const received1 = await serverPacketsReceived(ctx.connectString);
    const rss2 = rss();
    // The allocation rate is low by now, so these collections shrink the young generation too.
    settledHeap();
    const givenBackMs = await youngGenerationGivenBack(young0, settleCapMs);
    const rss3 = rss();
    const young3 = youngGeneration();
    const seconds = idle.ms / 1000;
    metrics = {
      sessions: n,
      connectMs: connected.ms,
      connectCpuMs: connected.cpuUs / 1000,
      heapPerSession: (heap1 - heap0) / n,
      rssPerSession: (rss2 - rss0) / n,
      rssPerSessionConnected: (rss1 - rss0) / n,
      // Not given back within the cap: no settled figure (NaN) rather than one taken before it.
      rssPerSessionSettled: Number.isNaN(givenBackMs) ? Number.NaN : (rss3 - young3 - (rss0 - young0)) / n,
      youngGivenBackS: givenBackMs / 1000,
      idleCpuMsPerSec: idle.cpuUs / 1000 / seconds,
      idleCpuUsPerSessionSec: idle.cpuUs / seconds / n,
      serverPacketsPerSec: (received1 - received0) / seconds,
    };
  } finally {
    const closed = await measure(() =>
      pipeline(open.length, connectWindow, (i, done) => {
        const s = open[i];
        if (s) s.close().then(() => done(null), done);
        else done(null);
      }),
    );
    closeMs = closed.ms;
  }
  return { ...metrics, closeMs };
}

/**
 * `fixtureChildren` data watches (one per child of the fixture), then the proxy cuts the connection and keeps
 * the client out while the harness changes every child, then lets it back. The client replays its watches
 * (SetWatches with its last zxid); the server answers each watch whose node changed since with the event.
 * Measured: from the moment the proxy accepts the reconnection (t0) until the last of the events has reached
 * the caller (t1). Every event proves its watch was replayed; none may arrive before the reconnection.
 */
export async function watchReplay(ctx: WorkloadContext): Promise<Metrics> {
  const fixture = fixtureOf(ctx);
  const proxy = ctx.proxy;
  if (!proxy) throw new Error('watchReplay needs the harness proxy');
  const n = scaleOf(ctx).fixtureChildren;
  const control = await ControlClient.open(proxy.controlPort);
  // 60 s (the server's maximum here): the client is away while 100,000 nodes change, and some clients wait a
  // third of the timeout between reconnection attempts.
  const s = await ctx.client.connect(`127.0.0.1:${proxy.port}`, { ...BIG, sessionTimeout: 60_000 });
  try {
    let delivered = 0;
    let lastAt = 0n;
    const onEvent = (): void => {
      if (++delivered === n) lastAt = process.hrtime.bigint();
    };
    const armed = await measure(() => pipeline(n, ctx.params.window, (i, done) => s.getDataWatch(`${fixture}/${childName(i)}`, onEvent, done)));
    await control.send('cut');
    await control.send('change');
    const early = delivered;
    const opened = process.hrtime.bigint();
    await control.send('open');
    await until(() => delivered >= n, 180_000, `${n} replayed watches to fire`).catch((e: unknown) => {
      throw new Error(`${String(e)} (${delivered} fired)`);
    });
    const [acceptedAt = '0'] = await control.send('accepted');
    const [frames = 'NaN', largest = 'NaN', bytes = 'NaN', connections = 'NaN'] = await control.send('frames');
    const t0 = BigInt(acceptedAt);
    return {
      watches: n,
      delivered,
      deliveredBeforeReconnect: early,
      replayMs: Number(lastAt - t0) / 1e6,
      reconnectWaitMs: Number(t0 - opened) / 1e6,
      setWatchesFrames: Number(frames),
      largestSetWatchesBytes: Number(largest),
      setWatchesBytes: Number(bytes),
      connectionsAfterReopen: Number(connections),
      armMs: armed.ms,
    };
  } finally {
    control.close();
    await s.close();
  }
}

/** Sequential getData of a `largeBytes` node (1 MiB): MB/s (10^6 bytes) and client CPU per reply. */
export async function getLarge(ctx: WorkloadContext): Promise<Metrics> {
  const { largeBytes, largeOps, largeWarmup } = scaleOf(ctx);
  const s = await ctx.client.connect(ctx.connectString, BIG);
  try {
    const path = `${ctx.base}-large`;
    await call((d) => s.create(path, new Uint8Array(largeBytes).fill(0x6c), d));
    const get = (): Promise<void> =>
      new Promise((resolve, reject) =>
        s.getDataBytes(path, (e, data) => {
          if (e) reject(e);
          else if (data?.byteLength !== largeBytes) reject(new Error(`got ${data?.byteLength} bytes, not ${largeBytes}`));
          else resolve();
        }),
      );
    for (let i = 0; i < largeWarmup; i++) await get();
    const lat = new Float64Array(largeOps);
    const span = await measure(async () => {
      for (let i = 0; i < largeOps; i++) {
        const t0 = process.hrtime.bigint();
        await get();
        lat[i] = Number(process.hrtime.bigint() - t0) / 1e6;
      }
    });
    lat.sort();
    await call((d) => s.delete(path, d));
    return {
      bytes: largeBytes,
      ops: largeOps,
      mbPerSec: (largeOps * largeBytes) / 1e6 / (span.ms / 1000),
      p50Ms: quantile(lat, 0.5),
      cpuMsPerGet: span.cpuUs / 1000 / largeOps,
    };
  } finally {
    await s.close();
  }
}

/** getChildren of the fixture (`fixtureChildren` children): time per call, and the heap one kept result holds. */
export async function children100k(ctx: WorkloadContext): Promise<Metrics> {
  const fixture = fixtureOf(ctx);
  const { fixtureChildren: n, childrenCalls, childrenWarmup } = scaleOf(ctx);
  const s = await ctx.client.connect(ctx.connectString, BIG);
  try {
    const list = (): Promise<readonly string[]> =>
      new Promise((resolve, reject) =>
        s.getChildrenList(fixture, (e, children) => {
          if (e) reject(e);
          else if (children?.length !== n) reject(new Error(`got ${children?.length} children, not ${n}`));
          else resolve(children);
        }),
      );
    for (let i = 0; i < childrenWarmup; i++) await list();
    const lat = new Float64Array(childrenCalls);
    const span = await measure(async () => {
      for (let i = 0; i < childrenCalls; i++) {
        const t0 = process.hrtime.bigint();
        await list();
        lat[i] = Number(process.hrtime.bigint() - t0) / 1e6;
      }
    });
    lat.sort();
    // Four results held at once, so a client that keeps its last reply alive somewhere (as the native binding
    // seems to) does not hide the cost of the one the caller holds.
    const heap0 = settledHeap();
    const kept = [await list(), await list(), await list(), await list()];
    const heap1 = settledHeap();
    return {
      children: kept[0]?.length ?? 0,
      calls: childrenCalls,
      msPerCall: quantile(lat, 0.5),
      meanMsPerCall: span.ms / childrenCalls,
      cpuMsPerCall: span.cpuUs / 1000 / childrenCalls,
      resultHeapBytes: (heap1 - heap0) / kept.length,
    };
  } finally {
    await s.close();
  }
}
