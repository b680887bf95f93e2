// The sessions1k row's start, for the drivers that look at what follows it: `n` sessions with up to 100
// handshakes in flight, a 1 s wait for the handshakes' garbage to go, then the settled heap (two full GCs).
import { client as native } from '../clients/native.js';
import { client as nzk } from '../clients/nzk.js';
import { client as zkts } from '../clients/zkts.js';
import { pipeline, settledHeap, sleep } from '../harness/measure.js';
import type { BenchClient, BenchSession } from '../harness/session.js';

const RUNNERS: Record<string, BenchClient> = { zkts, nzk, native };

/**
 * The runner a driver's first argument names (zkts, nzk or native), the server ZKTS_SERVER names, and the rest
 * of the arguments; else an error with the driver's `usage` line.
 */
export function rowDriverArguments(usage: string): { id: string; client: BenchClient; connectString: string; rest: string[] } {
  const [id = '', ...rest] = process.argv.slice(2);
  const client = RUNNERS[id];
  const connectString = process.env['ZKTS_SERVER'];
  if (client === undefined || connectString === undefined) throw new Error(`usage: ZKTS_SERVER=host:port ${usage}`);
  return { id, client, connectString, rest };
}

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
