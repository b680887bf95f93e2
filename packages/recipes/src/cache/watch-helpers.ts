/**
 * watchData / watchChildren: kazoo's DataWatch and ChildrenWatch, on the caches' machinery. A function is called
 * with the current value as soon as it is known, and again on every change, "does not exist" (null) included;
 * returning false stops the watching. Calls never overlap: a function that returns a promise is called again once
 * it settles, with the latest value (intermediate ones are skipped, as ZooKeeper's watches skip versions), so a
 * slow function never blocks the client. Everything a cache does across reconnects and renewals holds here too.
 */
import { basename, type Stat } from '@zkts/protocol';

import { checkArg, checkClientAndPath, checkOptions, knownOptions, rules, type OptionRules } from '../internal/index.js';
import { CACHE_OPTION_RULES } from './base-cache.js';
import type { CacheClient } from './client.js';
import { NodeCache } from './node-cache.js';
import { TreeCache } from './tree-cache.js';
import type { CacheOptions, CachedNode } from './types.js';

/** What the helpers return: `ready` resolves after the first call (rejects if the watch could not start). */
/** A running watchData/watchChildren: close it (or `await using` it) to stop. */
export interface Watching extends AsyncDisposable {
  readonly ready: Promise<void>;
  /** Stops calling the function and releases the cache behind it. */
  close(): Promise<void>;
}

type Verdict = void | boolean | Promise<void | boolean>;
/** Called with the node's data and Stat (null, null while it does not exist); return false to stop. */
export type DataWatcher<T> = (data: T | null, stat: Stat | null) => Verdict;
/** Called with the node's children (null while it does not exist); return false to stop. */
export type ChildrenWatcher = (children: string[] | null) => Verdict;

/** Calls `fn` with the latest value, one call at a time; false from `fn` stops it for good. */
class LatestCaller<V> {
  private value: V | undefined;
  private dirty = false;
  private running = false;
  private stopped = false;
  private readonly fn: (value: V) => Verdict;
  private readonly onStop: () => void;
  private readonly onError: (error: unknown) => void;
  readonly first: Promise<void>;
  private firstDone!: () => void;

  constructor(fn: (value: V) => Verdict, onStop: () => void, onError: (error: unknown) => void) {
    this.fn = fn;
    this.onStop = onStop;
    this.onError = onError;
    this.first = new Promise((resolve) => (this.firstDone = resolve));
  }

  set(value: V): void {
    if (this.stopped) return;
    this.value = value;
    this.dirty = true;
    if (this.running) return;
    this.running = true;
    queueMicrotask(() => void this.run());
  }

  private async run(): Promise<void> {
    while (this.dirty && !this.stopped) {
      this.dirty = false;
      try {
        if ((await this.fn(this.value as V)) === false) {
          this.stopped = true;
          this.onStop();
        }
      } catch (e) {
        this.onError(e);
      }
      this.firstDone();
    }
    this.running = false;
  }
}

function onErrorOf(options: { onError?: (error: Error) => void }): (error: unknown) => void {
  const report = options.onError;
  return (e) => {
    const error = e instanceof Error ? e : new Error(String(e));
    if (report !== undefined) report(error);
    else process.emitWarning(error, { code: 'ZKTS_CACHE' });
  };
}

function watching(cache: { start(): Promise<unknown>; close(): Promise<void> }, first: Promise<void>): Watching {
  const ready = cache.start().then(() => first);
  ready.catch(() => undefined);
  const close = (): Promise<void> => cache.close();
  return { ready, close, [Symbol.asyncDispose]: close };
}

const { data: _data, ...WATCH_CHILDREN_RULES } = CACHE_OPTION_RULES;

/** Calls `fn(data, stat)` now and on every change of the node at `path`; `(null, null)` while it does not exist. */
export function watchData<T = Uint8Array>(client: CacheClient, path: string, fn: DataWatcher<T>, options: CacheOptions<T> = {}): Watching {
  checkClientAndPath('watchData', client, path);
  checkArg('watchData', 'fn', fn, rules.function);
  checkOptions('watchData', options, CACHE_OPTION_RULES as OptionRules<CacheOptions<T>>);
  const cache = new NodeCache<T>(client, path, knownOptions(options, CACHE_OPTION_RULES as OptionRules<CacheOptions<T>>));
  const caller = new LatestCaller<CachedNode<T> | null>((n) => fn(n === null ? null : n.data, n === null ? null : n.stat), () => void cache.close(), onErrorOf(options));
  let node: CachedNode<T> | null = null;
  let started = false;
  cache.on((event) => {
    if (event.type === 'resynced') return;
    if (event.type === 'initialized') started = true;
    else node = event.node ?? null;
    if (started) caller.set(node);
  });
  return watching(cache, caller.first);
}

/**
 * Calls `fn(children)` (sorted names) now and whenever the set of children of `path` changes; `null` while the
 * node does not exist. Children's data is not read (a Stat per child is).
 */
export function watchChildren(client: CacheClient, path: string, fn: ChildrenWatcher, options: Omit<CacheOptions<undefined>, 'data'> = {}): Watching {
  checkClientAndPath('watchChildren', client, path);
  checkArg('watchChildren', 'fn', fn, rules.function);
  checkOptions('watchChildren', options, WATCH_CHILDREN_RULES);
  const cache = new TreeCache<undefined>(client, path, { ...knownOptions(options, WATCH_CHILDREN_RULES), data: 'stat', maxDepth: 1 });
  const caller = new LatestCaller<string[] | null>(fn, () => void cache.close(), onErrorOf(options));
  const names = new Set<string>();
  let exists = false;
  let started = false;
  let last: string | undefined;
  cache.on((event) => {
    if (event.type === 'resynced') return;
    if (event.type === 'initialized') started = true;
    else if (event.path === path) exists = event.type !== 'removed';
    else if (event.type === 'added') {
      names.add(basename(event.path));
      exists = true;
    } else if (event.type === 'removed') names.delete(basename(event.path));
    if (!started) return;
    const value = exists ? [...names].sort() : null;
    const key = value === null ? '\u0000' : value.join('/');
    if (key === last) return;
    last = key;
    caller.set(value);
  });
  return watching(cache, caller.first);
}
