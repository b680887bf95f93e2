/**
 * Which containers and TTL nodes are due for deletion (ContainerManager.getCandidates), checked every
 * `containerCheckIntervalMs` on the server's clock: an empty container that once had a child (cversion > 0),
 * and an empty TTL node whose mtime is older than its TTL. The deletion itself is a deleteContainer
 * transaction, submitted through `remove`.
 */
import type { Clock, ClockTimer } from '../options.js';
import type { DataTree } from './data-tree.js';
import { ephemeralKind, ttlOf } from './ephemeral-type.js';

/** The candidates for deletion now. */
export function reapCandidates(tree: DataTree, now: number): string[] {
  const out: string[] = [];
  for (const path of tree.containers) {
    const node = tree.getNode(path);
    if (node !== undefined && node.children.size === 0 && node.stat.cversion > 0) out.push(path);
  }
  for (const path of tree.ttls) {
    const node = tree.getNode(path);
    if (node === undefined || node.children.size !== 0) continue;
    if (ephemeralKind(node.stat.ephemeralOwner, tree.extendedTypesEnabled) !== 'ttl') continue;
    const ttl = ttlOf(node.stat.ephemeralOwner);
    if (ttl !== 0n && BigInt(Math.trunc(now)) - node.stat.mtime > ttl) out.push(path);
  }
  return out;
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
