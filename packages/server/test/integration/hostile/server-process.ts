// A server in its own Node process (run with --expose-gc), so a test can read the server's own heap:
//   node --expose-gc --conditions=zkts-source --import tsx server-process.ts '<startServer options as JSON>'
// prints "PORT <port>", then answers each "heap" line on stdin with "HEAP <heapUsed> <arrayBuffers> <rss>
// <connectionCount> <failures>" (after full GCs); exits when stdin closes.
import { createInterface } from 'node:readline';

import { startServer, type ServerOptions } from '@zkts/server';

const options = JSON.parse(process.argv[2] ?? '{}') as ServerOptions;
let failures = 0;
const server = await startServer({ ...options, logger: { debug() {}, info() {}, warn: (m) => void (m.includes('request failed') && failures++) } });
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
process.stdout.write(`PORT ${server.port}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'heap') continue;
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  process.stdout.write(`HEAP ${m.heapUsed} ${m.arrayBuffers} ${m.rss} ${server.connectionCount} ${failures}\n`);
}
await server.close();
