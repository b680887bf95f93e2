// A demo worker: its own process, its own ZooKeeper session. Started by workers.ts (for demo.ts) with
// `fork(worker.ts, [role, connectString, root, name, …])`; reports to the parent over the IPC channel.
//
//   mutex   <name> <holdMs>          takes the fair lock, "works" holdMs in steps, releases
//   reader  <name> <holdMs>          takes the read side of the read-write lock
//   writer  <name> <holdMs>          takes the write side
//   counter <name> <workers>         `workers` tasks, one Mutex each, each adds 1 to the counter node under it
import { connect } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { Mutex, ReadWriteLock } from '@zkts/recipes';
import type { LockHandle } from '@zkts/recipes';

import type { WorkerMessage } from './messages.js';
import { FAIR_LOCK, RW_LOCK, COUNTER, COUNTER_LOCK, SESSION_TIMEOUT_MS } from './messages.js';

function send(message: WorkerMessage): void {
  process.send?.(message);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Holds the lease for holdMs, reporting a progress step every 250 ms ("work"), then releases it. */
async function hold(name: string, lease: LockHandle, holdMs: number): Promise<void> {
  send({ kind: 'acquired', name, token: lease.fencingToken.toString() });
  const steps = Math.max(1, Math.ceil(holdMs / 250));
  for (let i = 1; i <= steps; i++) {
    await sleep(holdMs / steps);
    send({ kind: 'progress', name, step: i, of: steps });
  }
  // Sent before the node is deleted, so it reaches the demo before anyone can be granted the lock after us.
  send({ kind: 'releasing', name });
  await lease.release();
  send({ kind: 'released', name });
}

/** The demo starts every worker of a scene at once, then says `go` to each in turn (that fixes queue order). */
function go(): Promise<void> {
  return new Promise((resolve) => process.once('message', () => resolve()));
}

async function counter(client: ZkClient, root: string, name: string, workers: number): Promise<void> {
  const path = `${root}/${COUNTER}`;
  const one = async (i: number): Promise<void> => {
    const mutex = new Mutex(client, `${root}/${COUNTER_LOCK}`, { data: `${name}.${i}` });
    await using _lease = await mutex.acquire();
    const { data, stat } = await client.getData(path);
    const next = Number(new TextDecoder().decode(data)) + 1;
    // The version check would fail loudly if two holders ever overlapped: the lock is what prevents it.
    await client.setData(path, String(next), { version: stat.version });
    send({ kind: 'incremented', name: `${name}.${i}`, value: next });
  };
  await Promise.all(Array.from({ length: workers }, (_, i) => one(i)));
}

async function main(): Promise<void> {
  const [role = '', connectString = '', root = '', name = '', arg = '0'] = process.argv.slice(2);
  const client = await connect(connectString, { sessionTimeout: SESSION_TIMEOUT_MS });
  send({ kind: 'connected', name, sessionId: client.sessionId.toString(16) });
  await go();
  try {
    if (role === 'mutex') {
      const lease = await new Mutex(client, `${root}/${FAIR_LOCK}`, { data: name }).acquire();
      await hold(name, lease, Number(arg));
    } else if (role === 'reader' || role === 'writer') {
      const rw = new ReadWriteLock(client, `${root}/${RW_LOCK}`, { data: name });
      const lease = await (role === 'reader' ? rw.readLock : rw.writeLock).acquire();
      await hold(name, lease, Number(arg));
    } else if (role === 'counter') {
      await counter(client, root, name, Number(arg));
    } else {
      throw new Error(`unknown role ${role}`);
    }
  } finally {
    await client.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    send({ kind: 'failed', name: process.argv[5] ?? '?', error: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  },
);
