/**
 * The inspector's reads, bounded and tolerant: a listing or a read of a node that vanished meanwhile is simply
 * absent (contenders come and go while anyone looks), and one inspection makes at most READ_BUDGET data reads,
 * so a queue of a million items costs a thousand reads, not a million (the rest is counted, and the summary
 * says so). Only getChildren, getData and exists: the inspector never writes. No retries: the console asks
 * again, and a read that waits for a reconnect would hang its request.
 */
import { joinPath } from '@zkts/protocol';

import { isNoNode, type RecipeClient, type Stat } from '../internal/index.js';

/** Data (or stat) reads one inspection makes at most. */
export const READ_BUDGET = 1000;

/** A node whose Stat alone was read (exists): for queue items, whose data may be large. */
export interface StatNode {
  readonly name: string;
  readonly path: string;
  readonly stat: Stat;
}

/** A node as read: its name, path, data and Stat. */
export interface ReadNode {
  readonly name: string;
  readonly path: string;
  readonly data: Uint8Array;
  readonly stat: Stat;
}

/** The node under inspection: its children and its own data and Stat. */
export interface Listing {
  readonly path: string;
  readonly children: readonly string[];
  readonly data: Uint8Array;
  readonly stat: Stat;
}

export class Reader {
  /** Reads left in the budget. */
  private left = READ_BUDGET;
  /** Nodes we chose not to read because the budget ran out. */
  unread = 0;
  readonly now: number;

  constructor(
    private readonly client: RecipeClient,
    private readonly signal: AbortSignal | undefined,
    now: number,
  ) {
    this.now = now;
  }

  private get options(): { signal?: AbortSignal } {
    return this.signal === undefined ? {} : { signal: this.signal };
  }

  /** The node's children and data; undefined when it does not exist. Zkts's receipts (`_zkts-…`) are left out. */
  async listing(path: string): Promise<Listing | undefined> {
    this.signal?.throwIfAborted();
    const node = await this.read(path);
    if (node === undefined) return undefined;
    const children = await this.children(path);
    if (children === undefined) return undefined;
    return { path, children, data: node.data, stat: node.stat };
  }

  /** The children of `path` (receipts left out), or undefined when it does not exist. */
  async children(path: string): Promise<string[] | undefined> {
    this.signal?.throwIfAborted();
    try {
      return (await this.client.getChildren(path, this.options)).children.filter((c) => !c.startsWith('_zkts-'));
    } catch (e) {
      if (isNoNode(e)) return undefined;
      throw e;
    }
  }

  /** One node's data and Stat (counted against the budget), or undefined when it is gone. */
  async read(path: string): Promise<ReadNode | undefined> {
    this.signal?.throwIfAborted();
    this.left--;
    try {
      const { data, stat } = await this.client.getData(path, this.options);
      return { name: path.slice(path.lastIndexOf('/') + 1), path, data, stat };
    } catch (e) {
      if (isNoNode(e)) return undefined;
      throw e;
    }
  }

  /** Whether `path` exists (its Stat). */
  async exists(path: string): Promise<Stat | undefined> {
    this.signal?.throwIfAborted();
    return (await this.client.exists(path, this.options)) ?? undefined;
  }

  /**
   * Reads the children `names` of `dir` in the given order, as many as the budget allows (the rest counted in
   * `unread`); vanished ones are left out. In chunks, so a long queue does not put a thousand requests in
   * flight at once on a shared client.
   */
  async readAll(dir: string, names: readonly string[]): Promise<ReadNode[]> {
    const take = Math.max(0, Math.min(names.length, this.left));
    this.unread += names.length - take;
    const out: ReadNode[] = [];
    for (let i = 0; i < take; i += 100) {
      const chunk = await Promise.all(names.slice(i, Math.min(take, i + 100)).map((n) => this.read(joinPath(dir, n))));
      for (const r of chunk) if (r !== undefined) out.push(r);
    }
    return out;
  }

  /** Like readAll, but only the Stats (exists) of the first `limit` names, for nodes whose data we do not show. */
  async statAll(dir: string, names: readonly string[], limit: number): Promise<StatNode[]> {
    const wanted = Math.min(names.length, limit);
    const take = Math.max(0, Math.min(wanted, this.left));
    this.unread += wanted - take;
    this.left -= take;
    const out: StatNode[] = [];
    for (let i = 0; i < take; i += 100) {
      const chunk = await Promise.all(
        names.slice(i, Math.min(take, i + 100)).map(async (name) => {
          const path = joinPath(dir, name);
          const stat = await this.exists(path);
          return stat === undefined ? undefined : { name, path, stat };
        }),
      );
      for (const r of chunk) if (r !== undefined) out.push(r);
    }
    return out;
  }
}
