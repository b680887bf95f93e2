/**
 * Leader election, selector style (Curator LeaderSelector, kazoo Election.run): leadership is the length of an
 * async callback. The callback gets an AbortSignal that fires when leadership is lost; returning (or throwing)
 * gives leadership up. With `autoRequeue` the selector then queues again at the back of the line.
 *
 * Why a Mutex and not the latch engine (candidacy.ts): Curator's LeaderSelector IS an InterProcessMutex at the
 * leader path whose node data is the participant id (`_c_<uuid>-lock-<seq>`). Using our Mutex keeps that node
 * layout, so Curator selectors and ours on one path take turns, and a selector's lease inherits the mutex's
 * fault handling (guaranteed release, restart of a waiting acquire after a session renewal).
 * kazoo's Election is likewise a kazoo Lock with the identifier as data (`<uuidhex>__lock__<seq>`), and kazoo
 * counts only its own names: `layout: 'kazoo'` takes the same lock through UuidHexLock, so kazoo elections and
 * ours take turns. The two layouts must not be mixed on one path (kazoo cannot see the Curator-style node).
 *
 * Loss: by default (`lostOn: 'suspended'`, Curator's LeaderSelectorListenerAdapter policy) the signal fires as
 * soon as the connection is in doubt, before the server could expire the session and grant the next leader, so
 * two live members never both hold un-fired signals. The signal also fires at expiry, when our node is deleted,
 * and at close(). The selector waits for the callback to return before it queues again: a callback that ignores
 * its signal delays its own next term, never overlaps it.
 *
 * Traced as election terms (`zkts:election.term`), the callback run in the term's context; the mutex under it
 * publishes no lock waits or holds of its own (its holds are the terms).
 */
import { systemClock, type ACL, type Clock } from '@zkts/protocol';

import { RecipeArgumentError, RecipeClosedError } from '../errors.js';
import {
  aclRule, lostOnFor, withAcl,
  checkArg, checkClientAndPath, checkOptions, isLive, KeepAlive, rules, settleRemovals, type OptionRules, type RecipeClient,
} from '../internal/index.js';
import { LOST_ON, Mutex, quiet, UuidHexLock, type LockHandle, type LostOn, type Participant } from '../locks/index.js';
import { TermTrace } from './term-trace.js';

/** What a leadership callback learns about its term. */
export interface SelectorTerm {
  /** Our lock node (`_c_<uuid>-lock-<seq>`, or `<uuidhex>__lock__<seq>` with `layout: 'kazoo'`). */
  readonly node: string;
  /** The node's czxid: larger for every later term of any participant on this path. */
  readonly fencingToken: bigint;
}

/** The leadership callback: lead until it returns, stop when `signal` fires. */
export type LeadershipCallback = (signal: AbortSignal, term: SelectorTerm) => Promise<void>;

/** Options of a LeaderSelector. */
export interface LeaderSelectorOptions {
  /** Our participant id, stored in our node (Curator's `setId`). Default: a random id. */
  id?: string;
  /** Queue again after each term ends (Curator's `autoRequeue()`). Default false: requeue() by hand. */
  autoRequeue?: boolean;
  /**
   * When the term's signal fires. Default: the client's recipeErrorPolicy, else 'suspended' (as Curator's
   * adapter); 'expired' only at session loss.
   */
  lostOn?: LostOn;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
  /** Hears errors the callback throws and unexpected errors of the selector loop (which goes on). */
  onError?: (error: unknown) => void;
  /** Time source for the retry pause after an error (default: the system clock). */
  clock?: Clock;
  /**
   * Whose election nodes to write: 'curator' (default; `_c_<uuid>-lock-<seq>`, Curator's LeaderSelector) or
   * 'kazoo' (`<uuidhex>__lock__<seq>`, kazoo's Election, whose Lock ignores every other name).
   */
  layout?: SelectorLayout;
}

/** The node layouts a LeaderSelector can share: Curator's LeaderSelector or kazoo's Election. */
export type SelectorLayout = 'curator' | 'kazoo';

const LAYOUTS: readonly SelectorLayout[] = ['curator', 'kazoo'];

const OPTION_RULES: OptionRules<LeaderSelectorOptions> = {
  id: rules.nonEmptyString, autoRequeue: rules.boolean, lostOn: rules.oneOf(LOST_ON), onError: rules.function, clock: rules.clock, acl: aclRule,
  layout: rules.oneOf(LAYOUTS),
};

/** Counters of a LeaderSelector (diagnostics and tests). */
export interface SelectorStats {
  /** Terms begun (callbacks called). */
  terms: number;
  /** Terms whose signal fired before the callback returned (leadership lost, or close()). */
  interrupted: number;
}

/**
 * Selector-style leader election (Curator `LeaderSelector`, kazoo `Election.run`): leadership is an async
 * callback `(signal, term)` that leads until it returns; `signal` fires when leadership is lost (at suspension by
 * default, at expiry, if our node is deleted, at `close()`). With `autoRequeue` (or `requeue()`) it queues again.
 * Its nodes are a {@link Mutex}'s, so it queues with Curator's selectors on one path.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { LeaderSelector, type LeadershipCallback } from '@zkts/recipes';
 *
 * await using zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181');
 * const terms: string[] = [];
 * let bothLed!: () => void;
 * const done = new Promise<void>((resolve) => (bothLed = resolve));
 * const lead = (id: string): LeadershipCallback => async (signal, term) => {
 *   // Lead until this returns; stop early when `signal` fires.
 *   terms.push(`${id} ${term.fencingToken > 0n && !signal.aborted}`);
 *   if (terms.length === 2) bothLed();
 * };
 * const a = new LeaderSelector(zk, '/example/selector', lead('a'));
 * const b = new LeaderSelector(zk, '/example/selector', lead('b'));
 * a.start();
 * b.start();
 * await done; // one after the other: a term ends when its callback returns
 * console.log(terms.sort().join(', '));
 * await a.close();
 * await b.close();
 * await zk.removeRecursive('/example');
 * // a true, b true
 * ```
 */
export class LeaderSelector implements AsyncDisposable {
  readonly client: RecipeClient;
  readonly path: string;
  readonly id: string;
  readonly stats: SelectorStats = { terms: 0, interrupted: 0 };
  private readonly mutex: Mutex | UuidHexLock;
  private readonly callback: LeadershipCallback;
  private readonly options: LeaderSelectorOptions;
  /** Queues, leads, queues again; kicked by requeue() and close(), and pauses after an acquire that failed. */
  private readonly alive: KeepAlive;
  private queued = false;
  private started = false;
  private term: { readonly controller: AbortController; readonly lease: LockHandle; trace?: TermTrace | undefined } | undefined;

  constructor(client: RecipeClient, path: string, callback: LeadershipCallback, options: LeaderSelectorOptions = {}) {
    checkClientAndPath('LeaderSelector', client, path);
    checkArg('LeaderSelector', 'callback', callback, rules.function);
    checkOptions('LeaderSelector', options, OPTION_RULES);
    this.client = client = withAcl(client, options.acl);
    this.path = path;
    this.callback = callback;
    this.options = options;
    this.id = options.id ?? globalThis.crypto.randomUUID();
    const clock = options.clock ?? systemClock;
    const lockOptions = { data: this.id, lostOn: lostOnFor(client, options.lostOn, 'suspended'), clock } as const;
    this.mutex = options.layout === 'kazoo' ? new UuidHexLock(client, path, lockOptions) : new Mutex(client, path, lockOptions);
    quiet(this.mutex);
    this.alive = new KeepAlive(clock);
  }

  /** Whether our callback runs now with an un-fired signal. */
  get isLeader(): boolean {
    return this.term !== undefined && !this.term.controller.signal.aborted;
  }

  /** Whether close() was called. */
  get closed(): boolean {
    return this.alive.closed;
  }

  /** Queues for leadership (once; a second call throws RecipeArgumentError). Leadership comes through the callback. */
  start(): void {
    if (this.closed) throw new RecipeClosedError(`leader selector ${this.path} closed`);
    if (this.started) throw new RecipeArgumentError(`leader selector ${this.path} already started`);
    this.started = true;
    this.queued = true;
    void this.alive.start((kicked) => this.pass(kicked), (e) => this.recover(e));
  }

  /**
   * Queues again (Curator's requeue): without `autoRequeue`, for one more term; called during a term, the
   * selector queues once that term is over. Returns false if already queued, not started, or closed.
   */
  requeue(): boolean {
    if (!this.started || this.closed || this.queued) return false;
    this.queued = true;
    this.alive.kick();
    return true;
  }

  /** Participants in queue order (Curator's and ours); `data` is each one's id. The first leads. */
  participants(): Promise<Participant[]> {
    return this.mutex.participants();
  }

  /** Leaves: fires the signal of a running term, waits for the callback to return, and deletes our node. */
  async close(): Promise<void> {
    if (this.closed) return;
    const stopped = this.alive.close(new RecipeClosedError(`leader selector ${this.path} closed`));
    this.term?.controller.abort(this.alive.signal.reason);
    this.term?.trace?.finish('closed');
    await stopped;
    // An acquire that close() cut short with its create unanswered removes that node once the outcome is known.
    await settleRemovals(this.client, this.mutex);
  }

  /** The same as close(). */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** One pass of the keep-alive loop: waits until queued, takes the mutex, and leads for one term. */
  private async pass(kicked: Promise<void>): Promise<'stop' | void> {
    if (!this.queued) {
      await kicked;
      return;
    }
    if (!isLive(this.client.state)) return 'stop'; // a client that is over (closed, or expiry without renewal)
    const lease = await this.mutex.acquire({ signal: this.alive.signal });
    this.queued = false;
    await this.lead(lease);
    if (this.options.autoRequeue === true) this.queued = true;
  }

  /** An acquire that failed: the end when the client is over; otherwise reported, and queued again after a pause. */
  private recover(e: unknown): 'stop' | 'pause' {
    if (!isLive(this.client.state)) return 'stop';
    this.options.onError?.(e);
    return 'pause';
  }

  /** One term: the callback runs until it returns; its signal fires on loss or close; then we release. */
  private async lead(lease: LockHandle): Promise<void> {
    const controller = new AbortController();
    const lost = lease.lost;
    const term: { readonly controller: AbortController; readonly lease: LockHandle; trace?: TermTrace | undefined } = { controller, lease };
    const onLost = (): void => {
      controller.abort(lost.reason);
      term.trace?.finish('lost', lost.reason);
    };
    if (lost.aborted) onLost();
    else lost.addEventListener('abort', onLost, { once: true });
    if (this.closed) controller.abort(this.alive.signal.reason);
    this.term = term;
    let thrown: unknown;
    try {
      if (!controller.signal.aborted) {
        this.stats.terms++;
        const run = (): Promise<void> => this.callback(controller.signal, { node: lease.node, fencingToken: lease.fencingToken });
        term.trace = TermTrace.open('LeaderSelector', this.path, lease.node, this.id, this.client.sessionId);
        await (term.trace === undefined ? run() : term.trace.begin(run));
      }
    } catch (e) {
      thrown = e;
      if (!controller.signal.aborted) this.options.onError?.(e);
    } finally {
      if (controller.signal.aborted) this.stats.interrupted++;
      // Fire the signal before the node goes: the next leader can only start after we stopped leading.
      else controller.abort(new RecipeClosedError(`leadership of ${this.path} given up`));
      // Given up (returned, or threw: the throw is the trace's error); a loss or close() ended it already.
      term.trace?.finish('resigned', thrown);
      lost.removeEventListener('abort', onLost);
      this.term = undefined;
      await lease.release().catch((e: unknown) => this.options.onError?.(e));
    }
  }
}
