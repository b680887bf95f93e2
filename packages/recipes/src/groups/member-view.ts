/**
 * The followed member list of one group directory, shared by kazoo's Party and ShallowParty and Curator's
 * GroupMember: a ChildrenCache on the directory (so it converges after reconnects and renewals like every
 * cache), read as members by each recipe's own rule, and reported as a whole list each time it changes. Only
 * changes of the list are reported: a child that is not a member, or a re-read that finds the same members,
 * says nothing.
 */
import { basename, type Clock } from '@zkts/protocol';

import { ChildrenCache, type CacheClient, type ChildrenCacheOptions } from '../cache/index.js';
import { ChangeFeed, type WaitOptions } from '../internal/index.js';

/** How a recipe reads the children of its group directory. */
export interface MemberRule<T> {
  /** Whether the members' data is needed (Party, GroupMember) or the names say it all (ShallowParty). */
  readonly data: boolean;
  /** The member a child stands for, or undefined when the child is no member (a foreign node). */
  member(name: string, data: Uint8Array | undefined): T | undefined;
}

/** The members, by child name, in name order. */
export type Members<T> = ReadonlyMap<string, T>;

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

function sameMembers<T>(a: Members<T>, b: Members<T>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, value] of a) if (!b.has(name) || !sameValue(value, b.get(name))) return false;
  return true;
}

export class MemberView<T> {
  private readonly client: CacheClient;
  private readonly dir: string;
  private readonly rule: MemberRule<T>;
  private cache: ChildrenCache<Uint8Array | undefined> | undefined;
  private members: Members<T> = new Map();
  private loaded = false;
  /** Every new member list; ends when the recipe closes for good. */
  readonly feed = new ChangeFeed<Members<T>>();

  constructor(client: CacheClient, dir: string, rule: MemberRule<T>) {
    this.client = client;
    this.dir = dir;
    this.rule = rule;
  }

  /** The members as last seen (empty before the first read completes). */
  get current(): Members<T> {
    return this.members;
  }

  /** Whether the view is followed and complete. */
  get following(): boolean {
    return this.loaded && this.cache !== undefined;
  }

  /** Starts following (idempotent); resolves once the first read is complete. */
  async start(options: WaitOptions = {}): Promise<void> {
    if (this.cache === undefined) {
      // One cache type for both cases: with `data: 'stat'` the data is never read and stays undefined.
      const options: ChildrenCacheOptions<Uint8Array | undefined> = this.rule.data ? {} : { data: 'stat' as never };
      const cache = new ChildrenCache<Uint8Array | undefined>(this.client, this.dir, options);
      cache.on((event) => {
        if (cache !== this.cache) return;
        if (event.type === 'initialized') this.loaded = true;
        if (this.loaded) this.refresh(cache);
      });
      this.cache = cache;
    }
    await this.cache.start(options);
  }

  /** Stops following; the last list stays readable. The view can be started again. */
  async stop(): Promise<void> {
    const cache = this.cache;
    this.cache = undefined;
    this.loaded = false;
    await cache?.close();
  }

  /** Stops following for good: iterators of the feed end. */
  async close(): Promise<void> {
    await this.stop();
    this.feed.end();
  }

  /** Member changes as an async iterable (each a whole list), until closed or broken off. */
  iterate(options: { signal?: AbortSignal }, what: string, clock?: Clock): AsyncIterableIterator<Members<T>> {
    return this.feed.iterate(options, what, clock);
  }

  private refresh(cache: ChildrenCache<Uint8Array | undefined>): void {
    const next = new Map<string, T>();
    const rows: [string, T][] = [];
    for (const [path, node] of cache.entries()) {
      const name = basename(path);
      const value = this.rule.member(name, node.data);
      if (value !== undefined) rows.push([name, value]);
    }
    rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [name, value] of rows) next.set(name, value);
    if (sameMembers(next, this.members)) return;
    this.members = next;
    this.feed.emit(next);
  }
}
