/**
 * A node that lives while we run and a while after (Curator's PersistentTtlNode): a CONTAINER node at `path`,
 * kept by a PersistentNode, and under it a PERSISTENT_WITH_TTL child (`touch`) that we touch (setData, or
 * create when missing) every `ttl / touchFactor` ms. The node outlives a session, a renewal and a short crash;
 * once nobody touches the child for `ttl`, the server removes it and then the empty container. Touching the
 * child, not the node, keeps data watchers of the node from hearing every keep-alive.
 *
 * It needs a server with TTL nodes enabled (`zookeeper.extendedTypesEnabled=true`). The node is watched and
 * made again if someone deletes it, and the child is touched at once when that happens. close() stops touching
 * and deletes the child and then the node (Curator leaves both to the TTL), so a clean shutdown deregisters at
 * once; a node whose container holds other children is left to the server.
 */
import { joinPath, sleep, systemClock, type Clock, type ACL } from '@zkts/protocol';

import {
  aclRule, withAcl,
  checkArg, checkClientAndPath, checkOptions, checkWait, isConnectedState, isNodeExists, rules, type OptionRules, isNoNode, Pulse, removeNode, type Data, type RecipeClient, type WaitOptions,
} from '../internal/index.js';
import { PersistentNode } from './persistent-node.js';

/** Options of a PersistentTtlNode. */
export interface PersistentTtlNodeOptions {
  /** Data of the node (the container). Default: empty. */
  data?: Data;
  /** Name of the touched child. Default 'touch' (Curator's). */
  childName?: string;
  /** The child is touched every `ttl / touchFactor` ms. Default 2 (Curator's). */
  touchFactor?: number;
  /** Time source of the touch schedule (default: the system clock); tests pass a manual one. */
  clock?: Clock;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
}

/** The longest TTL the server accepts (40 bits of ms). */
const MAX_TTL_MS = 2 ** 40 - 1;

const OPTION_RULES: OptionRules<PersistentTtlNodeOptions> = {
  data: rules.data, childName: rules.nodeName, touchFactor: rules.number(1), clock: rules.clock,
  acl: aclRule,
};

/** Curator's PersistentTtlNode: a container with a `touch` child under a TTL, touched every ttl/2, so the node lives while its owner does. */
export class PersistentTtlNode implements AsyncDisposable {
  readonly client: RecipeClient;
  readonly path: string;
  readonly ttl: number;
  /** Full path of the touched child. */
  readonly childPath: string;
  /** Touches that reached the server (setData or create of the child). */
  touches = 0;
  private readonly node: PersistentNode;
  private readonly every: number;
  private readonly clock: Clock;
  private readonly closing = new AbortController();
  private readonly nudge = new Pulse();
  private loop: Promise<void> | undefined;
  private offChange: (() => void) | undefined;

  constructor(client: RecipeClient, path: string, ttl: number, options: PersistentTtlNodeOptions = {}) {
    checkClientAndPath('PersistentTtlNode', client, path);
    checkArg('PersistentTtlNode', 'ttl', ttl, rules.integer(1, MAX_TTL_MS));
    checkOptions('PersistentTtlNode', options, OPTION_RULES);
    const factor = options.touchFactor ?? 2;
    this.client = client = withAcl(client, options.acl);
    this.path = path;
    this.ttl = ttl;
    this.every = ttl / factor;
    this.clock = options.clock ?? systemClock;
    this.childPath = joinPath(path, options.childName ?? 'touch');
    this.node = new PersistentNode(client, path, { mode: 'container', data: options.data ?? '', clock: this.clock });
  }

  /** The node's path while it exists (as far as we know), else undefined. */
  get currentPath(): string | undefined {
    return this.node.currentPath;
  }

  /** Starts keeping the node and touching its child. Idempotent. */
  start(): void {
    if (this.loop !== undefined || this.closing.signal.aborted) return;
    // A node made (again): touch at once, so the child exists before the container could be reaped.
    this.offChange = this.node.onChange((path) => {
      if (path !== undefined) this.nudge.fire();
    });
    this.node.start();
    this.loop = this.run();
  }

  /** Resolves with the node's path once it exists. */
  async awaitCreated(options: WaitOptions = {}): Promise<string> {
    checkWait('PersistentTtlNode.awaitCreated', options);
    return this.node.awaitCreated(options);
  }

  /** Calls `listener` with the node's path whenever it is (re)created, undefined while it does not exist. */
  onChange(listener: (path: string | undefined) => void): () => void {
    checkArg('PersistentTtlNode.onChange', 'listener', listener, rules.function);
    return this.node.onChange(listener);
  }

  /** The same changes as an async iterable. */
  changes(options: { signal?: AbortSignal } = {}): AsyncIterableIterator<string | undefined> {
    return this.node.changes(options);
  }

  /** Replaces the data the node is (re)created with, and writes it to the node now. */
  async setData(data: Data): Promise<void> {
    checkArg('PersistentTtlNode.setData', 'data', data, rules.data);
    return this.node.setData(data);
  }

  /** Stops touching, then deletes the child and the node (guaranteed deletes). */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort();
    this.offChange?.();
    this.nudge.fire();
    await this.loop;
    await removeNode(this.client, { path: this.childPath });
    await this.node.close();
  }

  /** The same as close(), for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private async run(): Promise<void> {
    while (!this.closing.signal.aborted) {
      const nudged = this.nudge.next();
      await this.touch();
      const pause = sleep(this.every, { signal: this.closing.signal }, this.clock).catch(() => undefined);
      await Promise.race([pause, nudged]);
    }
  }

  /** One keep-alive: setData on the child, or create it. Skipped while disconnected (nothing is queued). */
  private async touch(): Promise<void> {
    const { client } = this;
    if (!isConnectedState(client.state) || this.node.currentPath === undefined) return;
    try {
      await client.setData(this.childPath, null);
      this.touches++;
      return;
    } catch (e) {
      if (!isNoNode(e)) return; // connection trouble: the next touch tries again
    }
    try {
      await client.create(this.childPath, null, { mode: 'persistent-ttl', ttl: this.ttl });
      this.touches++;
    } catch (e) {
      // NODE_EXISTS: someone touched it meanwhile; NO_NODE: the node is gone and is being made again.
      if (!isNodeExists(e) && !isNoNode(e)) return;
    }
  }
}
