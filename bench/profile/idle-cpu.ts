// Two builds of @zkts/protocol holding many idle sessions, side by side in ONE process so the machine's noise
// cancels: each round connects `sessions` sessions with build A (up to 100 handshakes in flight, as the
// sessions1k row does), measures the connect time and its CPU, lets them settle, measures the process's CPU
// over an idle window while they only ping, closes them, then does the same with build B (the order swaps
// every round). A short session timeout makes the pings frequent, so a short window holds many of them: the
// figure that compares is CPU per ping (the server's packet counter, `srvr`, counts them). `raw` adds the
// floor: bare sockets that send the same pings on their own timers and read the replies by their length only.
//
//   PROFILE=connect|idle  writes a CPU profile (.cpuprofile) of every round's connect phase or idle window
//   ZKTS_A=<other checkout>/packages/protocol/dist/index.js ZKTS_B=packages/protocol/dist/index.js \
//   ZKTS_SERVER=host:port node bench/.build/profile/idle-cpu.js [rounds=5] [sessions=1000] [timeoutMs=3000] [idleMs=4000] [nzk] [native] [raw]
//
// Compiled with the bench's child (bench/tsconfig.child.json) and run on plain node, like the bench children.
import { connect as netConnect } from 'node:net';
import type { Socket } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeFileSync } from 'node:fs';
import { Session as Inspector } from 'node:inspector/promises';

import type * as shipped from '@zkts/protocol';

import { client as nzk } from '../clients/nzk.js';
import type { BenchClient } from '../harness/session.js';
import { measure, pipeline, sleep } from '../harness/measure.js';
import { benchServer } from '../harness/server.js';

type Protocol = typeof shipped;

interface Holder {
  id: string;
  /** Opens one session; resolves once it is connected. */
  open(connectString: string, timeoutMs: number): Promise<{ close(): Promise<void> }>;
}

function zkts(mod: Protocol, id: string): Holder {
  return {
    id,
    open: async (cs, timeoutMs) => {
      const c = await mod.connect(cs, { sessionTimeout: timeoutMs });
      return { close: async () => { await c.close(); } };
    },
  };
}

/** A peer through its bench adapter (bench/clients/), the same code the sessions1k row runs. */
function peer(c: BenchClient): Holder {
  return { id: c.id, open: (cs, timeoutMs) => c.connect(cs, { sessionTimeout: timeoutMs }) };
}

/** The least a Node client can do per ping: a bare socket, a frame made once, one timer per session. */
function raw(): Holder {
  const ping = Buffer.alloc(12);
  ping.writeInt32BE(8, 0);
  ping.writeInt32BE(-2, 4);
  ping.writeInt32BE(11, 8);
  return {
    id: 'raw',
    open: (cs, timeoutMs) =>
      new Promise((done, fail) => {
        const [host = '127.0.0.1', port = '2181'] = cs.split(':');
        const hello = Buffer.alloc(49);
        hello.writeInt32BE(45, 0);
        hello.writeInt32BE(timeoutMs, 16);
        hello.writeInt32BE(16, 28);
        let timer: NodeJS.Timeout | undefined;
        let handshake = true;
        let pending = 0;
        const socket: Socket = netConnect({ host, port: Number(port) }, () => socket.write(hello));
        socket.setNoDelay(true);
        socket.on('error', fail);
        socket.on('data', (chunk: Buffer) => {
          // Replies are read by their length prefix only (pings answer with a 16-byte reply header).
          pending += chunk.length;
          if (handshake && pending >= 41) {
            handshake = false;
            const negotiated = chunk.readInt32BE(8);
            pending -= 41;
            timer = setInterval(() => socket.write(ping), negotiated / 3);
            done({
              close: () =>
                new Promise((closed) => {
                  clearInterval(timer);
                  socket.once('close', () => closed());
                  socket.destroy();
                }),
            });
          }
        });
      }),
  };
}

/** The server's count of packets received (four-letter word `srvr`). */
function packetsReceived(cs: string): Promise<number> {
  const [host = '127.0.0.1', port = '2181'] = cs.split(':');
  return new Promise((done) => {
    let text = '';
    const socket = netConnect({ host, port: Number(port) }, () => socket.write('srvr'));
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    socket.on('error', () => done(Number.NaN));
    socket.on('close', () => done(Number(/Received: (\d+)/.exec(text)?.[1] ?? Number.NaN)));
  });
}

async function load(path: string, id: string): Promise<Holder> {
  return zkts((await import(pathToFileURL(resolve(path)).href)) as Protocol, id);
}

interface Round {
  connectMs: number;
  connectCpuMs: number;
  idleCpuMsPerSec: number;
  usPerPing: number;
  pingsPerSec: number;
}

const profiled = process.env['PROFILE'];
const inspector = profiled === undefined ? undefined : new Inspector();
if (inspector) {
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
}

/** Runs `body` under the profiler when `phase` is the one asked for (its profile file named after the round). */
async function phase<T>(name: string, label: string, body: () => Promise<T>): Promise<T> {
  if (!inspector || profiled !== name) return body();
  await inspector.post('Profiler.start');
  const out = await body();
  const { profile } = await inspector.post('Profiler.stop');
  writeFileSync(`${label}-${name}.cpuprofile`, JSON.stringify(profile));
  return out;
}

async function round(h: Holder, cs: string, n: number, timeoutMs: number, idleMs: number, label: string): Promise<Round> {
  const open: { close(): Promise<void> }[] = [];
  const connected = await phase('connect', label, () => measure(() =>
    pipeline(n, 100, (_i, done) =>
      h.open(cs, timeoutMs).then((s) => {
        open.push(s);
        done(null);
      }, done),
    ),
  ));
  // Every session's timers settle into their rhythm (a full ping interval), the handshakes' garbage goes.
  await sleep(timeoutMs / 3 + 500);
  const p0 = await packetsReceived(cs);
  const idle = await phase('idle', label, () => measure(() => sleep(idleMs)));
  const p1 = await packetsReceived(cs);
  await pipeline(open.length, 100, (i, done) => void open[i]?.close().then(() => done(null), done));
  const pings = p1 - p0 - 1; // the second srvr connection's own packet
  return {
    connectMs: connected.ms,
    connectCpuMs: connected.cpuUs / 1000,
    idleCpuMsPerSec: idle.cpuUs / idle.ms,
    usPerPing: idle.cpuUs / pings,
    pingsPerSec: (pings * 1000) / idle.ms,
  };
}

function summary(values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  const median = s.length % 2 === 1 ? (s[(s.length - 1) / 2] ?? NaN) : ((s[s.length / 2 - 1] ?? NaN) + (s[s.length / 2] ?? NaN)) / 2;
  return `${median.toFixed(2)} [${(s[0] ?? NaN).toFixed(2)}..${(s[s.length - 1] ?? NaN).toFixed(2)}]`;
}

const [rounds = 5, sessions = 1000, timeoutMs = 3000, idleMs = 4000] = process.argv.slice(2, 6).map(Number);
const holders: Holder[] = [];
const a = process.env['ZKTS_A'];
const b = process.env['ZKTS_B'];
if (a) holders.push(await load(a, 'A'));
if (b) holders.push(await load(b, 'B'));
if (process.argv.includes('nzk')) holders.push(peer(nzk));
// Loaded only when asked for: the addon may not be built.
if (process.argv.includes('native')) holders.push(peer((await import('../clients/native.js')).client));
if (process.argv.includes('raw')) holders.push(raw());
if (holders.length === 0) throw new Error('set ZKTS_A and/or ZKTS_B (a build of @zkts/protocol: its dist/index.js), or pass raw');
const server = await benchServer();
const cs = server.connectString.split(',')[0] ?? '';
try {
  const results = new Map<string, Round[]>(holders.map((h) => [h.id, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? holders : [...holders].reverse();
    for (const h of order) {
      const x = await round(h, cs, sessions, timeoutMs, idleMs, `${h.id}-${r}`);
      results.get(h.id)?.push(x);
      console.log(`round ${r} ${h.id}: connect ${x.connectMs.toFixed(0)} ms (cpu ${x.connectCpuMs.toFixed(0)} ms), idle ${x.idleCpuMsPerSec.toFixed(2)} ms/s, ${x.usPerPing.toFixed(2)} us/ping, ${x.pingsPerSec.toFixed(0)} pings/s`);
    }
  }
  console.log(`\n${sessions} sessions, timeout ${timeoutMs} ms, idle ${idleMs} ms, ${rounds} rounds: median [min..max]`);
  for (const [id, xs] of results) {
    console.log(
      `${id}: connect ${summary(xs.map((x) => x.connectMs))} ms, connect cpu ${summary(xs.map((x) => x.connectCpuMs))} ms, idle ${summary(xs.map((x) => x.idleCpuMsPerSec))} ms/s, ${summary(xs.map((x) => x.usPerPing))} us/ping`,
    );
  }
} finally {
  await server.stop();
}
