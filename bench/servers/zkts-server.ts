// @zkts/server in its own process for the server rows (run.ts): `node --expose-gc zkts-server.js`. Prints
// "PORT <port> START <ms>" once it listens, <ms> from startServer() to a zkts client's first reply, measured
// in this process (what a test or a demo that embeds the server waits for); answers each "heap" line on stdin with "HEAP <heapUsed + arrayBuffers after full
// GCs>" (node data past 64 bytes lives in array buffers; the JVM counts its byte[] in its heap);
// exits when stdin closes. Options as the bench's ZooKeeper (server.ts): 60 s sessions, 4 MiB frames.
import { createInterface } from 'node:readline';

import { connect } from '@zkts/protocol';
import { startServer } from '@zkts/server';

const t0 = performance.now();
const server = await startServer({ maxSessionTimeout: 60_000, maxBuffer: 4 * 1024 * 1024 + 1024 });
const probe = await connect(server.connectString);
await probe.getData('/');
const startMs = performance.now() - t0;
await probe.close();
const gc = (globalThis as { gc?: () => void }).gc;
process.stdout.write(`PORT ${server.port} START ${startMs.toFixed(2)}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'heap') continue;
  for (let i = 0; i < 4 && gc; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  process.stdout.write(`HEAP ${heapUsed + arrayBuffers}\n`);
}
await server.close();
process.exit(0);
