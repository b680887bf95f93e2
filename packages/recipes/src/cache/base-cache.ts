/**
 * What TreeCache, NodeCache and ChildrenCache share: the options, the wiring of the engine (what goes into the
 * view), the keeper (the watch, reconnects and renewals) and the fan-out (who hears about it), and the life
 * cycle: start() resolves once the initial read is done, close() (or `await using`) ends every consumer. Only the
 * shape of the subtree (how deep, which nodes are reported) and the read API differ between the three. Each
 * (re)load is one trace on `zkts:cache.resync`, from the start of its full read until the view is complete.
 */
import { ClientClosedError } from '@zkts/protocol';

import { RecipeClosedError, RecipeError } from '../errors.js';
import {
  beginTrace, cacheResync, checkArg, checkClientAndPath, checkOptions, checkWait, finishTrace, openScope, rules, within, type CacheResyncTrace,
  type OptionRules, type Rule, type WaitOptions,
} from '../internal/index.js';
import type { CacheClient } from './client.js';
import { Engine, type WalkReason } from './engine/engine.js';
import { Fanout } from './engine/fanout.js';
import { WatchKeeper } from './engine/keeper.js';
import { Reads } from './engine/reads.js';
import { CacheDecodeError, CacheReadError } from './errors.js';
import type { CacheEvent, CacheListener, CacheOptions, Decoder, TreeCacheOptions } from './types.js';

const DEFAULT_MAX_PENDING = 10_000;
const DEFAULT_WINDOW = 1_000;

/** How a cache's counters read: for tests, dashboards and the curious. */
export interface CacheStats {
  /** Requests sent (getData, exists, getChildren; a multiRead batch of a full read counts one). */
  reads: number;
  /** Full reads started: the initial one and one per reconnect, renewal or retry. */
  fullReads: number;
  /** Events released out of zxid order: 0 by design (counted so that tests can hold the cache to it). */
  outOfOrder: number;
  /** Events read but held back (zxid order, or a full read under way). */
  held: number;
  /** Listeners and iterators attached. */
  consumers: number;
  /** Events folded together for consumers that fell behind (CacheOptions.maxPending). */
  merged: number;
}

export interface CacheShape {
  maxDepth: number;
  filter?: ((path: string) => boolean) | undefined;
  /** Which nodes' events consumers see (ChildrenCache: not the parent's). Default: all. */
  reported?: (path: string) => boolean;
}

/** A bound: an integer ≥ min, or Infinity for none. */
function count(min: number): Rule {
  const integer = rules.integer(min);
  return { expect: `${integer.expect} or Infinity`, test: (v) => v === Infinity || integer.test(v) };
}

/** The checks of the options every cache takes. */
export const CACHE_OPTION_RULES: OptionRules<CacheOptions<unknown>> = {
  data: { expect: "'bytes', 'stat' or a decoder function", test: (v) => v === 'bytes' || v === 'stat' || typeof v === 'function' },
  maxPending: count(1),
  watchMode: rules.oneOf(['auto', 'one-shot']),
  window: count(1),
  batchReads: rules.boolean,
  onError: rules.function,
};

/** The checks of TreeCache's options (ChildrenCache takes the same but maxDepth). */
export const TREE_CACHE_OPTION_RULES: OptionRules<TreeCacheOptions<unknown>> = {
  ...CACHE_OPTION_RULES, maxDepth: count(0), filter: rules.function,
};

/** Checks a cache constructor's options against `optionRules` and hands them on (for the super() call). */
export function checkedCacheOptions<O extends object>(what: string, options: O, optionRules: OptionRules<O>): O {
  checkOptions(what, options, optionRules);
  return options;
}

function defaultOnError(error: unknown): void {
  process.emitWarning(error instanceof Error ? error : new Error(String(error)), { code: 'ZKTS_CACHE' });
}

export abstract class BaseCache<T> implements AsyncIterable<CacheEvent<T>>, AsyncDisposable {
  /** The root of what is cached. */
  readonly path: string;
  protected readonly engine: Engine<T>;
  /** The class name, as the tracing channel reports it. */
  private readonly recipe: string;
  /** The `zkts:cache.resync` trace of the (re)load under way, when somebody listened as it began. */
  private load: CacheResyncTrace | undefined;
  private readonly keeper: WatchKeeper;
  private readonly fanout: Fanout<T>;
  private readonly onError: (error: unknown) => void;
  private starting: Promise<void> | undefined;
  private ended: Error | null | undefined;
  private readonly initial: { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void };

  protected constructor(client: CacheClient, path: string, options: CacheOptions<T>, shape: CacheShape) {
    checkClientAndPath(new.target.name, client, path);
    this.path = path;
    this.recipe = new.target.name;
    const onError = options.onError ?? defaultOnError;
    this.onError = (e) => {
      try {
        onError(e instanceof Error ? e : new Error(String(e)));
      } catch {
        // An error handler that throws has nowhere left to report to.
      }
    };
    let resolve!: () => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    promise.catch(() => undefined);
    this.initial = { promise, resolve, reject };

    const data = (options.data ?? 'bytes') as 'bytes' | 'stat' | Decoder<T>;
    const reads = new Reads(client, data !== 'stat', options.batchReads ?? true);
    const reported = shape.reported;
    this.fanout = new Fanout<T>(options.maxPending ?? DEFAULT_MAX_PENDING, this.onError);
    this.engine = new Engine<T>({
      root: path,
      maxDepth: shape.maxDepth,
      filter: shape.filter,
      reads,
      bytes: data === 'bytes',
      decode: this.decoder(data),
      window: options.window ?? DEFAULT_WINDOW,
      deliver: (events) => this.fanout.emit(reported === undefined ? events : events.filter((e) => reported(e.path))),
      walked: (reason) => this.walked(reason),
      onError: (p, e) => this.onError(e instanceof RecipeError ? e : new CacheReadError(p, e)),
      retryLater: () => this.keeper.retryLater(),
    });
    this.keeper = new WatchKeeper({
      client,
      root: path,
      mode: shape.maxDepth === 0 ? 'persistent' : 'persistent-recursive',
      forceOneShot: options.watchMode === 'one-shot',
      reads,
      engine: { startWalk: (reason) => this.startWalk(reason), notify: (event) => this.engine.notify(event) },
      end: (e) => this.end(e),
      onError: this.onError,
    });
  }

  private decoder(data: 'bytes' | 'stat' | Decoder<T>): (bytes: Uint8Array | undefined, path: string) => T {
    if (data === 'bytes') return (bytes) => bytes as T;
    if (data === 'stat') return () => undefined as T;
    return (bytes, path) => {
      try {
        return data(bytes ?? new Uint8Array(0), path);
      } catch (e) {
        this.onError(new CacheDecodeError(path, e));
        return undefined as T;
      }
    };
  }

  /** Nodes cached (as this cache reports them). */
  abstract get size(): number;

  /**
   * Starts a full read. The first of a (re)load begins its trace, and its reads go out in the trace's context;
   * one that supersedes an unfinished read belongs to the same (re)load, whose reason it may change (a renewal).
   */
  private startWalk(reason: WalkReason): void {
    const load = this.load;
    if (load !== undefined) load.reason = this.engine.reasonFor(reason);
    if (load !== undefined || this.ended !== undefined || !cacheResync.hasSubscribers) {
      this.engine.startWalk(reason);
      return;
    }
    const opened: CacheResyncTrace = { recipe: this.recipe, path: this.path, reason: this.engine.reasonFor(reason) };
    this.load = opened;
    beginTrace(cacheResync, opened, () => this.engine.startWalk(reason));
  }

  /** The (re)load is done: its trace, if one is open, ends with the reason and the view's size. */
  private loaded(reason: WalkReason, size: number): void {
    const load = this.load;
    if (load === undefined) return;
    this.load = undefined;
    load.reason = reason;
    load.size = size;
    finishTrace(cacheResync, load);
  }

  /** The cache ended (or was closed) before the (re)load was done: its trace, if one is open, ends with `error`. */
  private loadFailed(error: Error): void {
    const load = this.load;
    if (load === undefined) return;
    this.load = undefined;
    finishTrace(cacheResync, load, error);
  }

  private walked(reason: WalkReason): void {
    this.keeper.walked();
    const size = this.size;
    this.loaded(reason, size);
    this.fanout.emit([reason === 'initial' ? { type: 'initialized', size } : { type: 'resynced', reason, size }]);
    if (reason === 'initial') this.initial.resolve();
  }

  /**
   * Arms the watch and reads the subtree; resolves once the view is complete (the `initialized` event). Calling it
   * again waits for the same start. `timeout`/`signal` stop the waiting, not the start (close() does).
   */
  async start(options: WaitOptions = {}): Promise<this> {
    checkWait(`${this.constructor.name}.start`, options);
    if (this.ended !== undefined) throw new RecipeClosedError(`the cache of ${this.path} is closed`);
    if (this.starting === undefined) {
      this.starting = this.keeper.start().then(
        () => this.initial.promise,
        (e: unknown) => {
          const error = e instanceof Error ? e : new Error(String(e));
          this.end(error);
          throw error;
        },
      );
      this.starting.catch(() => undefined);
    }
    await within(openScope(options, `starting the cache of ${this.path}`), this.starting);
    return this;
  }

  /** Every event from now on (see CacheListener). Returns the function that detaches it. */
  on(listener: CacheListener<T>): () => void {
    checkArg(`${this.constructor.name}.on`, 'listener', listener, rules.function);
    return this.fanout.listen(listener);
  }

  /**
   * Every event from now on, as an async iterator with its own buffer (CacheOptions.maxPending). It ends after
   * close(), or throws once the client is gone for good; leaving the loop (or `signal`) detaches it.
   */
  events(options: { signal?: AbortSignal } = {}): AsyncIterableIterator<CacheEvent<T>> {
    checkOptions(`${this.constructor.name}.events`, options, { signal: rules.signal });
    return this.fanout.iterate(options.signal);
  }

  /** Every event from now on, in zxid order, with its own bounded buffer (see maxPending). */
  [Symbol.asyncIterator](): AsyncIterator<CacheEvent<T>> {
    return this.events();
  }

  /** Counters: reads, re-reads, events held and merged. */
  get stats(): CacheStats {
    const e = this.engine.stats;
    return { reads: e.reads, fullReads: e.walks, outOfOrder: e.outOfOrder, held: e.held, consumers: this.fanout.size, merged: this.fanout.merged };
  }

  /** The cache can go on no more (client closed, session over for good): consumers end, a start rejects. */
  private end(error: Error): void {
    if (this.ended !== undefined) return;
    this.ended = error instanceof ClientClosedError ? null : error;
    this.engine.close();
    this.loadFailed(error);
    void this.keeper.close();
    this.fanout.end(this.ended);
    this.initial.reject(error);
  }

  /** Removes the watch and ends every listener and iterator (iterators after what they hold). */
  async close(): Promise<void> {
    if (this.ended === undefined) {
      this.ended = null;
      this.engine.close();
      const closed = new RecipeClosedError(`the cache of ${this.path} was closed`);
      this.loadFailed(closed);
      this.fanout.end(null);
      this.initial.reject(closed);
    }
    await this.keeper.close();
  }

  /** The same as close(), for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
