/**
 * Double barrier (the ZooKeeper recipe, as Curator's DistributedDoubleBarrier): `enter()` returns once `count`
 * participants have entered; `leave()` returns once all of them have left. Each participant is an EPHEMERAL
 * child `<path>/<id>`, and whoever sees `count` children creates `<path>/ready`.
 * Leaving: the lowest participant waits for the highest; every other one deletes its node and waits for the
 * lowest, so each departure wakes one waiter. The last one out deletes `ready`, so the path can be reused for
 * the next round once everyone has left.
 */
import { deadlineFrom, raceWith, type Deadline, type WaitOptions } from './wait.js';
import { child, ensureDir, isNoNode, isNodeExists, retrying, type RecipeClient } from './zk.js';

const READY = 'ready';

/** The ZooKeeper double barrier: `enter` waits until `size` participants have entered, `leave` until all have left. */
export class DoubleBarrier {
  readonly client: RecipeClient;
  readonly path: string;
  readonly count: number;
  readonly id: string;
  private readonly node: string;
  private readonly ready: string;

  constructor(client: RecipeClient, path: string, count: number, options: { id?: string } = {}) {
    this.client = client;
    this.path = path;
    this.count = count;
    this.id = options.id ?? globalThis.crypto.randomUUID();
    this.node = child(path, this.id);
    this.ready = child(path, READY);
  }

  /** Joins, and resolves once `size` participants are in. */
  async enter(options: WaitOptions = {}): Promise<void> {
    const deadline = deadlineFrom(options.timeout);
    const what = `double barrier ${this.path} (enter)`;
    const { client } = this;
    await ensureDir(client, this.path);
    // Watch for `ready` BEFORE joining, so its creation cannot slip between our count and our wait.
    const { stat: readyStat, watch } = await raceWith(retrying(client, () => client.exists(this.ready, { watch: true })), options.signal, deadline, what);
    try {
      await retrying(client, () => client.create(this.node, null, { mode: 'ephemeral' }));
    } catch (e) {
      if (!isNodeExists(e)) throw e; // a retried create that had landed: the node is ours
    }
    if (readyStat !== null) return;
    const { children } = await raceWith(retrying(client, () => client.getChildren(this.path)), options.signal, deadline, what);
    if (children.filter((c) => c !== READY).length >= this.count) {
      try {
        await retrying(client, () => client.create(this.ready, null, { mode: 'persistent' }));
      } catch (e) {
        if (!isNodeExists(e)) throw e;
      }
      return;
    }
    await this.waitOrLeave(watch, options.signal, deadline, what);
  }

  /** Leaves, and resolves once every participant has left. */
  async leave(options: WaitOptions = {}): Promise<void> {
    const deadline = deadlineFrom(options.timeout);
    const what = `double barrier ${this.path} (leave)`;
    const { client } = this;
    for (;;) {
      const { children } = await raceWith(retrying(client, () => client.getChildren(this.path)), options.signal, deadline, what);
      const others = children.filter((c) => c !== READY).sort();
      const mine = others.includes(this.id);
      if (others.length === 0 || (others.length === 1 && mine)) {
        if (mine) await this.deleteQuietly(this.node);
        await this.deleteQuietly(this.ready);
        return;
      }
      const lowest = others[0] as string;
      const highest = others[others.length - 1] as string;
      let target: string;
      if (mine && lowest === this.id) {
        target = highest;
      } else {
        if (mine) await this.deleteQuietly(this.node);
        target = lowest;
      }
      try {
        const { watch } = await raceWith(retrying(client, () => client.getData(child(this.path, target), { watch: true })), options.signal, deadline, what);
        if (watch !== undefined) await raceWith(watch, options.signal, deadline, what);
      } catch (e) {
        if (!isNoNode(e)) throw e;
      }
    }
  }

  private async waitOrLeave(watch: Promise<unknown>, signal: AbortSignal | undefined, deadline: Deadline, what: string): Promise<void> {
    try {
      await raceWith(watch, signal, deadline, what);
    } catch (e) {
      // Gave up: withdraw, or the others would count us as present.
      await this.deleteQuietly(this.node);
      throw e;
    }
  }

  private async deleteQuietly(path: string): Promise<void> {
    try {
      await retrying(this.client, () => this.client.delete(path));
    } catch (e) {
      if (!isNoNode(e)) throw e;
    }
  }
}
