/**
 * Captures the four-letter fixtures of test/fixtures/four-letter/ from a real ZooKeeper 3.8 server (run once,
 * by hand, when the formats need re-checking):
 *
 *   node --conditions=zkts-source --import tsx packages/cli/test/support/capture-four-letter.ts
 *
 * Two sessions, A (timeout 10 s) and B (20 s): A owns /app/members/a-0000000000 and /app/lock, B owns
 * /app/members/b; both watch /app/config's data, B watches /app/lock (exists), A watches /app/members'
 * children (which no word shows: wchc/wchp dump data watches only). A second server whitelists only srvr.
 */
import { mkdirSync, writeFileSync } from 'node:fs';

import { createClient } from '@zkts/protocol';
import { startZooKeeper } from '@zkts/testkit';

const out = new URL('../fixtures/four-letter/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });
const server = await startZooKeeper({ fourLetterWhitelist: '*', tickTime: 500, minSessionTimeout: 1000, maxSessionTimeout: 60_000 });
const limited = await startZooKeeper({ fourLetterWhitelist: 'srvr' });
try {
  const a = await createClient(server.connectString, { sessionTimeout: 10_000 }).connect();
  const b = await createClient(server.connectString, { sessionTimeout: 20_000 }).connect();
  await a.create('/app', null);
  await a.create('/app/config', Buffer.from('x'));
  await a.create('/app/members', null);
  await a.create('/app/members/a-', null, { mode: 'ephemeral-sequential' });
  await a.create('/app/lock', null, { mode: 'ephemeral' });
  await b.create('/app/members/b', null, { mode: 'ephemeral' });
  await a.getData('/app/config', { watch: true });
  await b.getData('/app/config', { watch: true });
  await b.exists('/app/lock', { watch: true });
  await a.getChildren('/app/members', { watch: true });
  for (const word of ['cons', 'wchc', 'wchp', 'dump', 'mntr']) writeFileSync(`${out}zk38-${word}.txt`, await server.fourLetter(word));
  writeFileSync(`${out}zk38-limited-cons.txt`, await limited.fourLetter('cons'));
  console.log(`session A 0x${a.sessionId.toString(16)}, session B 0x${b.sessionId.toString(16)}`);
  await a.close();
  await b.close();
} finally {
  await server[Symbol.asyncDispose]();
  await limited[Symbol.asyncDispose]();
}
