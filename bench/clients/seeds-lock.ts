// "The seeds": the naive lock typical Node code writes on node-zookeeper-client. An ephemeral-sequential node,
// getChildren, and an exists watch on the predecessor; the lowest sequence holds the lock. No GUID, no
// session checks, no cleanup on error: it is the baseline the zkts Mutex is compared against.
import type { Client } from 'node-zookeeper-client';
import nzk from 'node-zookeeper-client';

import type { BenchLock } from '../harness/session.js';

export interface SeedsLockCounters {
  watchEvents: number;
}

function promised<T>(op: (cb: (error: Error | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => op((e, v) => (e ? reject(e) : resolve(v))));
}

const sequenceOf = (name: string): number => Number(name.slice(name.lastIndexOf('-') + 1));

export class SeedsLock implements BenchLock {
  #node: string | undefined;

  constructor(
    private readonly client: Client,
    private readonly dir: string,
    private readonly counters: SeedsLockCounters,
  ) {}

  async acquire(): Promise<void> {
    const path = await promised<string>((cb) =>
      this.client.create(`${this.dir}/lock-`, null, nzk.CreateMode.EPHEMERAL_SEQUENTIAL, cb),
    );
    this.#node = path;
    const mine = path.slice(this.dir.length + 1);
    for (;;) {
      const children = await promised<string[]>((cb) => this.client.getChildren(this.dir, cb));
      children.sort((a, b) => sequenceOf(a) - sequenceOf(b));
      const index = children.indexOf(mine);
      if (index < 0) throw new Error(`lock node ${path} vanished`);
      if (index === 0) return;
      const predecessor = `${this.dir}/${children[index - 1] ?? ''}`;
      let wake!: () => void;
      const woken = new Promise<void>((r) => (wake = r));
      const stat = await promised((cb) =>
        this.client.exists(
          predecessor,
          () => {
            this.counters.watchEvents++;
            wake();
          },
          cb,
        ),
      );
      // Gone already: look again. Otherwise wait for the deletion (or any other event) and look again.
      if (stat) await woken;
    }
  }

  async release(): Promise<void> {
    const node = this.#node;
    if (!node) throw new Error('not held');
    this.#node = undefined;
    await new Promise<void>((resolve, reject) => this.client.remove(node, -1, (e) => (e ? reject(e) : resolve())));
  }
}
