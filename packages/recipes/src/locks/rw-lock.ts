/**
 * A fair read-write lock with Curator InterProcessReadWriteLock's node names (`_c_<uuid>-__READ__<seq>`,
 * `_c_<uuid>-__WRIT__<seq>`). Who waits for whom is lock-rule.ts's rule for every node on the path, so a Mutex
 * (`lock-`) on the same path is a writer to our readers, and kazoo's `__rlock__`/`__lock__` nodes count too.
 *
 * - Readers share the lock. A reader waits only on its NEAREST preceding writer (the ZK recipe and kazoo), not
 *   Curator's lowest writer, so a reader behind several writers wakes once, when the writer just ahead leaves.
 * - A writer waits on its immediate predecessor, reader or writer.
 * - Downgrade: while this instance holds the write lock, readLock.acquire() is granted at once with an EPHEMERAL
 *   node carrying the write node's sequence (CURATOR-621), so releasing the write lock afterwards keeps our
 *   place: writers queued behind us keep waiting.
 * - Upgrade (write asked while this instance holds the read lock) rejects with LockUpgradeError: it could only
 *   deadlock, since the write would wait for our own read node.
 */
import { basename, joinPath } from '@zkts/protocol';

import { LockLostError, LockUpgradeError } from '../errors.js';
import {
  checkClientAndPath, checkOptions, checkpoint, ensureDir, knownOptions, formatSequence, isConnectionLoss, isNodeExists, isNoNode, parseContender, protectedPrefix,
  removeSoon, retrying, type RecipeClient, type Scope,
} from '../internal/index.js';
import type { Entry } from './contender.js';
import { FairLock, LOCK_OPTION_RULES, type LockOptions, type Participant } from './fair-lock.js';
import { LOCK_MARKERS, MARKER } from './lock-rule.js';
import type { Attempt } from './lock-state.js';
import type { TracedAs, WaitProgress } from './lock-trace.js';

const TRACED_WRITE: TracedAs = { recipe: 'ReadWriteLock', kind: 'write' };
const TRACED_READ: TracedAs = { recipe: 'ReadWriteLock', kind: 'read' };

/**
 * A fair read-write lock with Curator `InterProcessReadWriteLock`'s layout (`__READ__` / `__WRIT__` nodes): readers
 * share, a writer excludes everyone. `readLock` and `writeLock` are its two locks, each acquired like a
 * {@link Mutex}. A reader waits only for the writers queued before it; a write lock asked for while the same
 * instance holds the read lock is refused (`LockUpgradeError`: it would wait on itself).
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { ReadWriteLock } from '@zkts/recipes';
 *
 * await using zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181');
 * const [a, b, c] = [1, 2, 3].map(() => new ReadWriteLock(zk, '/example/rw'));
 * const readA = await a!.readLock.acquire();
 * const readB = await b!.readLock.acquire(); // readers share
 * const writing = c!.writeLock.acquire({ timeout: 5_000 }); // waits for both readers
 * console.log('holders', (await a!.holders()).map((p) => p.kind).join(' '));
 * await readA.release();
 * await readB.release();
 * const write = await writing;
 * console.log('holders', (await a!.holders()).map((p) => p.kind).join(' '));
 * await write.release();
 * await zk.removeRecursive('/example');
 * // holders read read
 * // holders write
 * ```
 */
export class ReadWriteLock {
  readonly readLock: ReadLock;
  readonly writeLock: WriteLock;
  readonly path: string;

  constructor(client: RecipeClient, path: string, options: LockOptions = {}) {
    checkClientAndPath('ReadWriteLock', client, path);
    checkOptions('ReadWriteLock', options, LOCK_OPTION_RULES);
    this.path = path;
    // Unknown keys were warned about once, here: the two sides get only the known ones.
    const sides = knownOptions(options, LOCK_OPTION_RULES);
    this.writeLock = new WriteLock(client, path, sides, this);
    this.readLock = new ReadLock(client, path, sides, this);
  }

  /** Every contender, readers and writers, in queue order. */
  participants(): Promise<Participant[]> {
    return this.writeLock.participants();
  }

  /** The current holders: one writer, or the readers ahead of the first writer. */
  holders(): Promise<Participant[]> {
    return this.writeLock.holders();
  }
}

/** The write side of a ReadWriteLock (`__WRIT__` nodes): exclusive against readers and writers. */
export class WriteLock extends FairLock {
  protected readonly marker = MARKER.write;
  protected readonly tracedAs = TRACED_WRITE;
  private readonly rw: ReadWriteLock;

  constructor(client: RecipeClient, path: string, options: LockOptions, rw: ReadWriteLock) {
    super(client, path, options);
    this.rw = rw;
  }

  /** Full path of our write node while held. */
  get heldNode(): string | undefined {
    return this.isHeld ? this.currentNode : undefined;
  }

  protected override precheck(): void {
    if (this.rw.readLock.holdCount > 0) throw new LockUpgradeError();
  }
}

/** The read side of a ReadWriteLock (`__READ__` nodes): shared with other readers, exclusive against writers. */
export class ReadLock extends FairLock {
  protected readonly marker = MARKER.read;
  protected readonly tracedAs = TRACED_READ;
  private readonly rw: ReadWriteLock;

  constructor(client: RecipeClient, path: string, options: LockOptions, rw: ReadWriteLock) {
    super(client, path, options);
    this.rw = rw;
  }

  protected override obtain(attempt: Attempt, progress: WaitProgress | undefined): Promise<Entry | undefined> {
    const writeNode = this.rw.writeLock.heldNode;
    if (writeNode === undefined) return super.obtain(attempt, progress);
    return this.downgrade(writeNode, attempt.scope);
  }

  /** Read node at the write node's position: `_c_<uuid>-__READ__<writer's seq>`, EPHEMERAL (not sequential). */
  private async downgrade(writeNode: string, scope: Scope): Promise<Entry> {
    const writer = parseContender(basename(writeNode), LOCK_MARKERS);
    if (writer === undefined) throw new LockLostError(`unrecognised write node ${writeNode}`);
    const name = `${protectedPrefix(globalThis.crypto.randomUUID())}${MARKER.read}${formatSequence(writer.sequence)}`;
    const path = joinPath(this.path, name);
    const { client } = this;
    for (;;) {
      checkpoint(scope);
      try {
        const { stat } = await client.create(path, this.options.data ?? '', { mode: 'ephemeral' });
        return { path, name, stat, sessionId: stat.ephemeralOwner };
      } catch (e) {
        if (isNoNode(e)) {
          await ensureDir(client, this.path);
          continue;
        }
        if (!isConnectionLoss(e) && !isNodeExists(e)) {
          await removeSoon(client, { path });
          throw e;
        }
        // Outcome unknown (or a retried create found it): adopt only a node our session owns.
        await client.connected();
        const stat = await retrying(client, () => client.exists(path));
        if (stat === null) continue;
        if (stat.ephemeralOwner === client.sessionId) return { path, name, stat, sessionId: stat.ephemeralOwner };
        throw new LockLostError(`downgrade node ${path} belongs to another session`);
      }
    }
  }
}
