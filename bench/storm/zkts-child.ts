// One side of the reconnect-storm row: N zkts sessions in this process, connected to the member the harness
// will kill (the survivors' proxies refuse until then). Prints `ready` once all are connected, then for every
// session the time (Date.now) it was connected again after its connection dropped, as one JSON line, once all
// are back or after 60 s (and when each noticed the drop). argv: connectString n [min max] (the reconnectDelay; omitted: the default).
import { createClient } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';

const [connectString = '', nArg = '1000', minArg, maxArg] = process.argv.slice(2);
const n = Number(nArg);
const reconnectDelay = minArg !== undefined && maxArg !== undefined ? { reconnectDelay: { min: Number(minArg), max: Number(maxArg) } } : {};

async function main(): Promise<void> {
  const clients: ZkClient[] = [];
  const back: number[] = [];
  const lost: number[] = [];
  const dropped = new Set<number>();
  let expired = 0;
  let done: () => void = () => undefined;
  const allBack = new Promise<void>((r) => (done = r));
  for (let i = 0; i < n; i++) {
    // Shuffled, as the Java client's list is: until the kill the survivors' proxies refuse, so every session
    // lands on the doomed member, and after it each goes on to a survivor of its own order.
    const c = createClient(connectString, { sessionTimeout: 30_000, ...reconnectDelay });
    clients.push(c);
    c.onStateChange((change) => {
      if (change.state === 'suspended') {
        dropped.add(i);
        lost.push(Date.now());
      }
      else if (change.state === 'expired') expired++;
      else if (change.state === 'connected' && dropped.has(i)) {
        dropped.delete(i);
        back.push(Date.now());
        if (back.length === n) done();
      }
    });
  }
  // 100 handshakes in flight at a time (a pool filling up), as the sessions1k row does.
  for (let i = 0; i < n; i += 100) await Promise.all(clients.slice(i, i + 100).map((c) => c.connect()));
  process.stdout.write('ready\n');

  const timeout = new Promise<void>((r) => setTimeout(r, 60_000).unref());
  await Promise.race([allBack, timeout]);
  process.stdout.write(`${JSON.stringify({ back, lost, expired })}\n`);
  for (let i = 0; i < n; i += 100) await Promise.all(clients.slice(i, i + 100).map((c) => c.close()));
}

main().catch((e: unknown) => {
  process.stdout.write(`${JSON.stringify({ error: e instanceof Error ? e.message : String(e) })}\n`);
  process.exitCode = 1;
});
