/**
 * Which containers and TTL nodes are due for deletion (ContainerManager.getCandidates), checked every
 * `containerCheckIntervalMs` on the server's clock: an empty container that once had a child (cversion > 0),
 * and an empty TTL node whose mtime is older than its TTL. The deletion itself is a deleteContainer
 * transaction, submitted through `remove`.
 */
import type { Clock, ClockTimer } from '../options.js';
import type { DataTree } from './data-tree.js';
import { ephemeralKind, ttlOf } from './ephemeral-type.js';
import { JavaHashSet } from './java-hash-order.js';

/**
 * The candidates for deletion now, in the order ZooKeeper 3.8 deletes them: it gathers them in a
 * `new HashSet<String>()`, containers then TTL nodes, and deletes in that set's iteration order (which a watcher
 * of several sees in its events' order). Two candidates in one bucket keep the order they were gathered in,
 * ours by creation where ZooKeeper's comes from its ConcurrentHashMap of containers; they differ only then.
 */
export function reapCandidates(tree: DataTree, now: number): string[] {
  const out = new JavaHashSet(16);
  for (const path of tree.containers) {
    const node = tree.getNode(path);
    if (node !== undefined && node.children.size === 0 && node.stat.cversion > 0) out.add(path);
  }
  for (const path of tree.ttls) {
    const node = tree.getNode(path);
    if (node === undefined || node.children.size !== 0) continue;
    if (ephemeralKind(node.stat.ephemeralOwner, tree.extendedTypesEnabled) !== 'ttl') continue;
    const ttl = ttlOf(node.stat.ephemeralOwner);
    if (ttl !== 0n && BigInt(Math.trunc(now)) - node.stat.mtime > ttl) out.add(path);
  }
  return out.ordered();
}

/** Runs reapCandidates every `interval` ms until stopped. */
export class ContainerReaper {
  private timer: ClockTimer | undefined;
  private running = false;

  constructor(
    private readonly tree: DataTree,
    private readonly clock: Clock,
    private readonly interval: number,
    private readonly remove: (path: string) => void,
  ) {}

  start(): void {
    this.running = true;
    this.schedule();
  }

  private schedule(): void {
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        this.run();
        if (this.running) this.schedule();
      },
      this.interval,
      { unref: true },
    );
  }

  /** One pass now (also what the timer runs). */
  run(): void {
    for (const path of reapCandidates(this.tree, this.clock.now())) this.remove(path);
  }

  stop(): void {
    this.running = false;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
