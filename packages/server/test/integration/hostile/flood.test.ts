// A connection flood against a server in its own process (server-process.ts, so its heap is its own): 2,000
// connections opened and dropped in every way (at once, mid-handshake, after a session, with requests unread),
// then slowloris connections holding half-frames. The server must keep answering, the good session must be
// unharmed, half-open connections must be closed by the server, and once the flood's sessions have expired the
// server's heap must be back within FLAT_BOUND of where it was.
import { connect as tcp, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '@zkts/protocol';

import { connectFrame, rawConnect, requestFrame } from '../../support/raw.js';
import { goodSession } from './good-session.js';
import { killAll, startForeign } from '../../../../recipes/test/support/foreign.js';

/** ZKTS_FLOOD sets the flood's size (a leak grows with it; JIT warm-up does not). */
const FLOOD = Number(process.env['ZKTS_FLOOD'] ?? 2000);
const WAVE = 200;
const SLOWLORIS = 200;
const FLAT_BOUND = 2 * 1024 * 1024;
const SESSIONLESS_MS = 1500;

afterEach(() => killAll());

interface Heap {
  heapUsed: number;
  arrayBuffers: number;
  rss: number;
  connections: number;
  failures: number;
}

function serverProcess(): { port: Promise<number>; heap: () => Promise<Heap> } {
  const file = fileURLToPath(new URL('./server-process.ts', import.meta.url));
  const options = { tickTime: 500, sessionlessConnectionTimeout: SESSIONLESS_MS };
  const p = startForeign('server process', process.execPath, ['--expose-gc', '--conditions=zkts-source', '--import', 'tsx', file, JSON.stringify(options)]);
  let asked = 0;
  return {
    port: p.line(/^PORT (\d+)$/m).then((m) => Number(m[1])),
    async heap() {
      asked++;
      p.proc.stdin?.write('heap\n');
      while ([...p.output().matchAll(/^HEAP /gm)].length < asked) await new Promise((r) => setTimeout(r, 20));
      const last = [...p.output().matchAll(/^HEAP (\d+) (\d+) (\d+) (\d+) (\d+)$/gm)].pop() as RegExpMatchArray;
      const [heapUsed, arrayBuffers, rss, connections, failures] = last.slice(1).map(Number) as [number, number, number, number, number];
      return { heapUsed, arrayBuffers, rss, connections, failures };
    },
  };
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = tcp({ host: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
  });
}

/** One flood connection, dropped in one of four ways. */
async function floodOne(port: number, i: number): Promise<void> {
  if (i % 4 === 0) {
    (await open(port)).destroy();
    return;
  }
  const raw = await rawConnect(port);
  const hello = connectFrame({ timeout: 1000 });
  if (i % 4 === 1) {
    raw.socket.write(hello.subarray(0, 10)); // half a handshake
  } else {
    raw.socket.write(hello);
    await raw.next();
    // With requests pipelined and never read.
    if (i % 4 === 3) for (let k = 0; k < 20; k++) raw.socket.write(requestFrame(k + 1, 4, { path: '/', watch: true }));
  }
  raw.socket.destroy();
}

const mib = (b: number): string => `${(b / 2 ** 20).toFixed(2)} MiB`;

describe('hostile input: a connection flood', () => {
  it(`${FLOOD} connections opened and dropped, ${SLOWLORIS} slowloris half-frames: server answers, good session unharmed, heap flat`, async () => {
    const server = serverProcess();
    const port = await server.port;
    const cs = `127.0.0.1:${port}`;
    const good = await goodSession(cs, '/good');
    for (let i = 0; i < 100; i++) await floodOne(port, i); // warm the code paths before the baseline
    await new Promise((r) => setTimeout(r, 2500)); // their sessions expire (1 s, ticks of 500 ms)
    const before = await server.heap();

    const started = Date.now();
    for (let w = 0; w < FLOOD; w += WAVE) await Promise.all(Array.from({ length: WAVE }, (_, k) => floodOne(port, w + k)));
    const floodMs = Date.now() - started;

    // Slowloris: a length prefix near maxBuffer and a few bytes, or nothing at all, then silence.
    const slow = await Promise.all(Array.from({ length: SLOWLORIS }, () => rawConnect(port)));
    slow.forEach((s, i) => {
      if (i % 2 === 0) s.socket.write(Uint8Array.from([0, 0x0f, 0xff, 0xf0, 0, 0, 0]));
    });
    const during = await server.heap();
    // Still answering while they hang on: a new session, and the good one.
    const probe = await connect(cs);
    const t0 = Date.now();
    await probe.getData('/');
    const probeMs = Date.now() - t0;
    await probe.close();
    // The server closes connections that never finish a handshake (sessionlessConnectionTimeout).
    const deadline = new Promise<'open'>((r) => setTimeout(() => r('open'), 10 * SESSIONLESS_MS));
    expect(await Promise.race([Promise.all(slow.map((s) => s.closed)).then(() => 'closed'), deadline])).toBe('closed');
    const slowClosedMs = Date.now() - started - floodMs;

    await new Promise((r) => setTimeout(r, 2500)); // the flood's sessions expire
    const result = await good.stop();
    const after = await server.heap();
    console.info(
      `flood: ${FLOOD} connections in ${floodMs} ms; ${SLOWLORIS} slowloris closed by the server after ${slowClosedMs} ms; ` +
        `probe getData ${probeMs} ms; heapUsed before ${mib(before.heapUsed)}, with slowloris ${mib(during.heapUsed)} ` +
        `(arrayBuffers ${mib(during.arrayBuffers)}, rss ${mib(during.rss)}), after ${mib(after.heapUsed)} ` +
        `(arrayBuffers ${mib(after.arrayBuffers)}); good session ${result.cycles} cycles`,
    );
    expect(result.failure).toBeUndefined();
    expect(result.sameSession).toBe(true);
    expect(probeMs).toBeLessThan(1000);
    expect(after.connections).toBe(0);
    expect(after.failures).toBe(0);
    expect(after.heapUsed - before.heapUsed).toBeLessThan(FLAT_BOUND);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(FLAT_BOUND);
  }, 120_000);
});
