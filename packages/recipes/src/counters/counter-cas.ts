/**
 * The compare-and-set under the counters (DistributedAtomicLong, kazoo Counter): write a new value only if the
 * node still has the version we read, and know for certain whether the write happened, even when its reply
 * was lost.
 *
 * Why a receipt: "after a ConnectionLoss, re-read and compare" does not work for a counter. If the node is
 * now at version v+1 holding our bytes, another incrementer that read the same value wrote the same bytes just
 * as well; at v+2 or later, our write may or may not be among the ones applied. So every write goes in one
 * multi with a setData of a receipt node that only this instance writes: `<path>/_zkts-cas-<uuid>`, an
 * EPHEMERAL child of the counter, its data the attempt's token. After a connection loss (same session) we
 * sync() (the new server catches up with the leader, so a write our old server had forwarded is visible) and
 * read the receipt: our token means the whole multi committed, anything else means it did not. The original
 * libraries read only the counter node's data, so the child is invisible to them; it goes at close(), or with
 * our session (while it exists the counter node cannot be deleted).
 *
 * If the session that sent the write ended before we learned the outcome, its ephemeral receipt is gone too:
 * the outcome cannot be known, and the call rejects with CounterOutcomeUnknownError rather than guess.
 */
import { joinPath, MultiError, parentPath } from '@zkts/protocol';

import { CounterOutcomeUnknownError } from '../errors.js';
import {
  ensureDir, isConnectionLoss, isExpiry, isNodeExists, isNoNode, isServerCode, retrying, type RecipeClient,
} from '../internal/index.js';

/** How a counter's value is stored in the node's data. */
export interface Codec<T> {
  encode(value: T): Uint8Array;
  /** `bytes` may be empty (a node made by ensure_path or a foreign create): the codec's default. */
  decode(bytes: Uint8Array): T;
}

/** A read value with the version a compare-and-set needs (undefined: no node yet). */
export interface Versioned<T> {
  readonly value: T;
  readonly version: number | undefined;
}

/** Counters for diagnostics and the tests. */
export interface CasStats {
  /** Compare-and-set attempts sent. */
  attempts: number;
  /** Attempts that lost to a concurrent writer (the version had moved). */
  conflicts: number;
  /** Attempts whose reply was lost, settled by reading the receipt. */
  settledByReceipt: number;
}

export class CasNode<T> {
  readonly client: RecipeClient;
  readonly path: string;
  readonly stats: CasStats = { attempts: 0, conflicts: 0, settledByReceipt: 0 };
  private readonly codec: Codec<T>;
  private readonly receipt: string;
  private readonly instance = globalThis.crypto.randomUUID();

  constructor(client: RecipeClient, path: string, codec: Codec<T>) {
    this.client = client;
    this.path = path;
    this.codec = codec;
    this.receipt = joinPath(path, `_zkts-cas-${this.instance}`);
  }

  /** The current value and version (the codec's default and undefined when there is no node). */
  async read(): Promise<Versioned<T>> {
    try {
      const { data, stat } = await retrying(this.client, () => this.client.getData(this.path));
      return { value: this.codec.decode(data), version: stat.version };
    } catch (e) {
      if (isNoNode(e)) return { value: this.codec.decode(new Uint8Array(0)), version: undefined };
      throw e;
    }
  }

  /**
   * Writes `value` if the node is still at `expected.version` (or, for undefined, does not exist yet): true if
   * written, false if someone else wrote first. Exact under a lost reply (see the header).
   */
  async trySet(expected: Versioned<T>, value: T): Promise<boolean> {
    const { client, path } = this;
    const data = this.codec.encode(value);
    for (;;) {
      this.stats.attempts++;
      const token = `${this.instance}:${this.stats.attempts}`;
      const ops =
        expected.version === undefined
          ? [
              { op: 'create' as const, path, data, mode: 'persistent' as const },
              { op: 'create' as const, path: this.receipt, data: token, mode: 'ephemeral' as const },
            ]
          : [
              { op: 'setData' as const, path, data, version: expected.version },
              { op: 'setData' as const, path: this.receipt, data: token, version: -1 },
            ];
      const session = client.sessionId;
      try {
        await client.multi(ops);
        return true;
      } catch (e) {
        if (e instanceof MultiError) {
          if (e.failedIndex === 0 && isNoNode(e) && expected.version === undefined) {
            // The counter's parent is missing: make it (containers, as Curator's creatingParentContainersIfNeeded).
            await ensureDir(client, parentPath(path));
            continue;
          }
          if (e.failedIndex === 0 && (isServerCode(e, 'BAD_VERSION') || isNodeExists(e) || isNoNode(e))) {
            this.stats.conflicts++;
            return false;
          }
          if (e.failedIndex === 1 && isNoNode(e) && expected.version !== undefined) {
            // No receipt yet in this session (first write, or a renewed session): make it, then try again.
            await this.ensureReceipt();
            continue;
          }
          throw e;
        }
        if (isExpiry(e)) {
          throw new CounterOutcomeUnknownError(`${path}: the session ended while a write was under way`, { cause: e });
        }
        if (!isConnectionLoss(e)) throw e;
        return this.settle(session, token);
      }
    }
  }

  /** Deletes our receipt (the counter node stays). */
  async close(): Promise<void> {
    await this.client.delete(this.receipt).catch(() => undefined);
  }

  private async ensureReceipt(): Promise<void> {
    await retrying(this.client, async () => {
      try {
        await this.client.create(this.receipt, null, { mode: 'ephemeral' });
      } catch (e) {
        if (!isNodeExists(e)) throw e;
      }
    });
  }

  /** After a lost reply: did the multi sent in `session` with `token` commit? */
  private async settle(session: bigint, token: string): Promise<boolean> {
    const { client } = this;
    for (;;) {
      await client.connected();
      if (client.sessionId !== session) {
        throw new CounterOutcomeUnknownError(`${this.path}: the session ended before the outcome of a write was known`);
      }
      try {
        await client.sync(this.path);
        const { data } = await client.getData(this.receipt);
        this.stats.settledByReceipt++;
        const applied = new TextDecoder().decode(data) === token;
        if (!applied) this.stats.conflicts++;
        return applied;
      } catch (e) {
        if (isNoNode(e)) {
          // No receipt (nor counter): the multi that would have written it did not commit.
          this.stats.settledByReceipt++;
          return false;
        }
        if (!isConnectionLoss(e)) throw e;
      }
    }
  }
}
