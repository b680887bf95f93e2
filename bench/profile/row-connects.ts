// The sessions1k row's start, for the drivers that look at what follows it: `n` sessions with up to 100
// handshakes in flight, a 1 s wait for the handshakes' garbage to go, then the settled heap (two full GCs).
import { pipeline, settledHeap, sleep } from '../harness/measure.js';
import type { BenchClient, BenchSession } from '../harness/session.js';

export async function connectAsTheRow(client: BenchClient, connectString: string, n: number): Promise<BenchSession[]> {
  const open: BenchSession[] = [];
  await pipeline(n, 100, (_i, done) => client.connect(connectString).then((s) => {
    open.push(s);
    done(null);
  }, done));
  await sleep(1000);
  settledHeap();
  return open;
}
