/**
 * Double barrier (the ZooKeeper recipe, as Curator's DistributedDoubleBarrier): `enter()` returns once `count`
 * participants have entered; `leave()` returns once all of them have left. Each participant is an EPHEMERAL
 * child `<path>/<id>`, and whoever sees `count` children creates `<path>/ready`.
 * Leaving: the lowest participant waits for the highest; every other one deletes its node and waits for the
 * lowest, so each departure wakes one waiter. The last one out deletes `ready`, so the path can be reused for
 * the next round once everyone has left.
 */
import { joinPath, type ACL } from '@zkts/protocol';

import {
  aclRule, withAcl,
  checkArg, checkClientAndPath, checkOptions, checkWait, ensureDir, isNodeExists, rules, isNoNode, openScope, retrying, within, type RecipeClient, type Scope, type WaitOptions,
} from '../internal/index.js';

const READY = 'ready';

/** A double barrier: `enter` waits until `count` participants are in, `leave` until all of them have left. */
export class DoubleBarrier {
  readonly client: RecipeClient;
  readonly path: string;
  readonly count: number;
  readonly id: string;
  private readonly node: string;
  private readonly ready: string;

  constructor(client: RecipeClient, path: string, count: number, options: { id?: string; acl?: ACL[] } = {}) {
    checkClientAndPath('DoubleBarrier', client, path);
    checkArg('DoubleBarrier', 'count', count, rules.integer(1, 2 ** 31 - 1));
    // `ready` is the barrier's own node: a participant of that name would be taken for the signal to go.
    checkOptions('DoubleBarrier', options, { id: { expect: `${rules.nodeName.expect}, not '${READY}'`, test: (v) => rules.nodeName.test(v) && v !== READY }, acl: aclRule });
    this.client = withAcl(client, options.acl);
    this.path = path;
    this.count = count;
    this.id = options.id ?? globalThis.crypto.randomUUID();
    this.node = joinPath(path, this.id);
    this.ready = joinPath(path, READY);
  }

  /** Joins, and resolves once `count` participants are in. */
  async enter(options: WaitOptions = {}): Promise<void> {
    checkWait('DoubleBarrier.enter', options);
    const scope = openScope(options, `double barrier ${this.path} (enter)`);
    try {
      await this.enterWithin(scope);
    } finally {
      scope?.dispose();
    }
  }

  /** Leaves, and resolves once every participant has left. */
  async leave(options: WaitOptions = {}): Promise<void> {
    checkWait('DoubleBarrier.leave', options);
    const scope = openScope(options, `double barrier ${this.path} (leave)`);
    try {
      await this.leaveWithin(scope);
    } finally {
      scope?.dispose();
    }
  }

  private async enterWithin(scope: Scope): Promise<void> {
    const { client } = this;
    await ensureDir(client, this.path);
    // Watch for `ready` BEFORE joining, so its creation cannot slip between our count and our wait.
    const { stat: readyStat, watch } = await within(scope, retrying(client, () => client.exists(this.ready, { watch: true })));
    try {
      await retrying(client, () => client.create(this.node, null, { mode: 'ephemeral' }));
    } catch (e) {
      if (!isNodeExists(e)) throw e; // a retried create that had landed: the node is ours
    }
    if (readyStat !== null) return;
    const { children } = await within(scope, retrying(client, () => client.getChildren(this.path)));
    if (children.filter((c) => c !== READY).length >= this.count) {
      try {
        await retrying(client, () => client.create(this.ready, null, { mode: 'persistent' }));
      } catch (e) {
        if (!isNodeExists(e)) throw e;
      }
      return;
    }
    await this.waitOrLeave(watch, scope);
  }

  private async leaveWithin(scope: Scope): Promise<void> {
    const { client } = this;
    for (;;) {
      const { children } = await within(scope, retrying(client, () => client.getChildren(this.path)));
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
        const { watch } = await within(scope, retrying(client, () => client.getData(joinPath(this.path, target), { watch: true })));
        if (watch !== undefined) await within(scope, watch);
      } catch (e) {
        if (!isNoNode(e)) throw e;
      }
    }
  }

  private async waitOrLeave(watch: Promise<unknown>, scope: Scope): Promise<void> {
    try {
      await within(scope, watch);
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
