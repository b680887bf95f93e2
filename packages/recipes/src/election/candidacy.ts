/**
 * One participant's place in a leader election, kept for as long as the participant runs. It is the engine
 * under LeaderElection (latch style: lead until closed), kept apart so that a selector style (lead for the
 * length of a callback, then go to the back of the line) needs only `awaitLeadership` and `requeue()`.
 *
 * Algorithm (Curator LeaderLatch, with its known gaps closed): every participant keeps a protected
 * EPHEMERAL_SEQUENTIAL `latch-` node; the lowest is the leader. Before declaring leadership the leader reads its
 * own node and checks that its ephemeralOwner is our CURRENT session and that we are connected (CURATOR-696: a
 * stale node of an old session must not make us leader). A non-leader watches its predecessor with a data
 * watch; if that node is already gone it lists again, without recreating its own node (CURATOR-644/645
 * livelock). Our node missing means our place is gone: join again.
 *
 * Across faults:
 * - suspended: the node stays (the session may live); leadership pauses when `lostOn: 'suspended'`, and
 *   resumes with the same node (and fencing token) after the reconnect if nobody led meanwhile.
 * - expired: leadership ends at once. With session renewal (the client's default) the candidacy joins again in
 *   the new session with a new node, at the back of the line; a client whose expiry is final stops it.
 */
import { joinPath, type Clock } from '@zkts/protocol';

import { LockLostError, RecipeClosedError } from '../errors.js';
import {
  indexOfName, isConnectedState, isConnectionLoss, isLive, isNoNode, isSessionGone, KeepAlive, openScope, Pulse,
  removeNode, settleRemovals, sortContenders, testHooksOf, type MarkerTable, type RecipeClient, type Stat,
} from '../internal/index.js';
import {
  enqueue, removeLateDuplicates, sweepPrefix, type ContenderSpec, type Entry, type LostOn,
} from '../locks/index.js';
import { TermTrace, type TermEnd } from './term-trace.js';

export const LATCH_MARKERS: MarkerTable = { 'latch-': 'write' };

/** One term of leadership. */
export interface Leadership {
  /** Our latch node. */
  readonly node: string;
  /**
   * The node's czxid. Every later leader's token is larger; a participant that leads again with the same node
   * (after a suspension nobody else used) keeps its token, as no one else led in between.
   */
  readonly fencingToken: bigint;
  /** The session that owns the node. */
  readonly sessionId: bigint;
  /** Fires when this term ends (session lost, suspended under `lostOn: 'suspended'`, node gone, closed). */
  readonly signal: AbortSignal;
}

export interface CandidacySpec {
  readonly client: RecipeClient;
  readonly path: string;
  /** Stored in our node (participants() reports it). */
  readonly id: string;
  readonly lostOn: LostOn;
  readonly clock: Clock;
  /** The public recipe object whose test hooks apply. */
  readonly owner: object;
  /** The recipe's class name, as the `zkts:election.term` channel reports it. */
  readonly recipe: string;
  /** Hears every start and end of a term, after the change (a start: in the term trace's context). */
  readonly onChange: (leadership: Leadership | undefined) => void;
}

/** Counters for diagnostics and the chaos test. */
export interface ElectionStats {
  /** Nodes created (the first join included). */
  joins: number;
  /** Joins made because a new session replaced the one that owned our node. */
  renewals: number;
  /** Terms of leadership begun. */
  terms: number;
}

export class Candidacy {
  readonly stats: ElectionStats = { joins: 0, renewals: 0, terms: 0 };
  private readonly spec: CandidacySpec;
  private entry: Entry | undefined;
  private term: { readonly leadership: Leadership; readonly controller: AbortController; readonly trace: TermTrace | undefined } | undefined;
  /** Kicked on every session state change, on requeue() and on close: the loop's waits end on it. */
  private readonly alive: KeepAlive;
  /** Fires when a node of ours exists (start() waits on it) and when the loop ends. */
  private readonly joined = new Pulse();
  private requeueing = false;
  /**
   * The data watch we wait on (our predecessor, or our own node as leader), kept across loop passes: a pass
   * after a mere state change reads the node again but reuses the armed watch, so a leader that reconnects
   * often does not pile up one-shot watchers on its node.
   */
  private watched: { readonly path: string; readonly sessionId: bigint; readonly fired: Promise<unknown>; settled: boolean } | undefined;
  private ended: unknown;
  private unsubscribe: (() => void) | undefined;

  constructor(spec: CandidacySpec) {
    this.spec = spec;
    this.alive = new KeepAlive(spec.clock);
  }

  /** The last unexpected error of the loop (it retries after it). */
  get lastError(): unknown {
    return this.alive.lastError;
  }

  get leadership(): Leadership | undefined {
    return this.term?.leadership;
  }

  /** Our node's full path, once created. */
  get node(): string | undefined {
    return this.entry?.path;
  }

  get closed(): boolean {
    return this.alive.closed;
  }

  /** Joins; resolves once our node exists (rejects if the client is over first). */
  async start(): Promise<void> {
    if (this.closed) throw new RecipeClosedError(`leader election ${this.spec.path} closed`);
    if (!this.alive.started) {
      this.unsubscribe = this.spec.client.onStateChange((c) => {
        if (c.state === 'expired') this.stepDown('session expired');
        else if (!isLive(c.state)) this.stepDown(`session ${c.state}`);
        else if (c.state === 'suspended' && this.spec.lostOn === 'suspended') this.stepDown('connection suspended');
        this.alive.kick();
      });
      void this.alive.start((kicked) => this.pass(kicked), (e) => this.recover(e)).finally(() => this.joined.fire());
    }
    for (;;) {
      const joined = this.joined.next();
      if (this.entry !== undefined) return;
      if (this.closed) throw new RecipeClosedError(`leader election ${this.spec.path} closed`);
      if (this.ended !== undefined) throw this.ended;
      await joined;
    }
  }

  /** Gives up our place (and leadership): our node is deleted and a new one joins at the back of the line. */
  requeue(): void {
    if (this.closed) return;
    this.requeueing = true;
    this.stepDown('requeued', 'resigned');
    this.alive.kick();
  }

  /** Leaves: ends leadership, stops the loop, deletes our node. */
  async close(): Promise<void> {
    if (this.closed) return;
    const stopped = this.alive.close();
    this.stepDown('closed', 'closed');
    this.unsubscribe?.();
    await stopped;
    await this.leave();
    // A create that close() cut short is removed once its outcome is known: wait for that too.
    await settleRemovals(this.spec.client, this);
  }

  private async leave(): Promise<void> {
    const entry = this.entry;
    this.entry = undefined;
    if (entry === undefined) return;
    await removeNode(this.spec.client, { path: entry.path }, entry.sessionId);
    if (entry.uncertain !== undefined) await sweepPrefix(this.spec.client, entry.uncertain, entry.sessionId);
  }

  private contenderSpec(): ContenderSpec {
    const { client, path, id, owner } = this.spec;
    return {
      client, dir: path, marker: 'latch-', markers: LATCH_MARKERS, decide: () => ({ granted: true }),
      data: id, hooks: testHooksOf(owner), owner: this, what: `leader election ${path}`,
    };
  }

  /** Creates our node; close() cancels a create still under way (its node is then removed by enqueue). */
  private async join(): Promise<Entry> {
    const scope = openScope({ signal: this.alive.signal }, `leader election ${this.spec.path}`);
    try {
      const { entry } = await enqueue(this.contenderSpec(), scope);
      this.stats.joins++;
      return entry;
    } finally {
      scope?.dispose();
    }
  }

  private lead(entry: Entry): void {
    if (this.term !== undefined) return;
    const controller = new AbortController();
    const leadership: Leadership = { node: entry.path, fencingToken: entry.stat.czxid, sessionId: entry.sessionId, signal: controller.signal };
    const { recipe, path, id } = this.spec;
    const trace = TermTrace.open(recipe, path, entry.path, id, entry.sessionId);
    this.term = { leadership, controller, trace };
    this.stats.terms++;
    if (trace === undefined) this.spec.onChange(leadership);
    else trace.begin(() => this.spec.onChange(leadership));
  }

  /** Ends the term, if any: its signal fires, and its trace ends (`end`: lost unless we resigned or closed). */
  private stepDown(why: string, end: TermEnd = 'lost'): void {
    const term = this.term;
    if (term === undefined) return;
    this.term = undefined;
    const error = new LockLostError(`leadership of ${this.spec.path} lost: ${why}`);
    term.controller.abort(error);
    term.trace?.finish(end, end === 'lost' ? error : undefined);
    this.spec.onChange(undefined);
  }

  /** One pass of the keep-alive loop: joins (again) when our node is gone, then leads or waits for our predecessor. */
  private async pass(kicked: Promise<void>): Promise<'stop' | void> {
    const { client, path, lostOn } = this.spec;
    if (!isLive(client.state)) {
      // The client is over (closed, auth-failed, or expired without renewal): so is the candidacy.
      this.stepDown(`session ${client.state}`);
      this.ended = new RecipeClosedError(`leader election ${path}: the client is ${client.state}`);
      return 'stop';
    }
    if (!isConnectedState(client.state)) {
      if (lostOn === 'suspended') this.stepDown('not connected');
      await Promise.race([client.connected(), kicked]);
      return;
    }
    if (this.requeueing) {
      this.requeueing = false;
      this.stepDown('requeued', 'resigned');
      await this.leave();
      return;
    }
    let entry = this.entry;
    if (entry === undefined || entry.sessionId !== client.sessionId) {
      // First join, our node lost, or a renewed session: the old node went with its session.
      this.stepDown('our node belongs to an ended session');
      if (entry !== undefined && entry.sessionId !== client.sessionId) this.stats.renewals++;
      this.entry = undefined;
      entry = await this.join();
      this.entry = entry;
      this.joined.fire();
    }
    await this.take(entry, kicked);
  }

  /** A pass that threw: a gone session or connection is the next pass's state check; anything else pauses. */
  private recover(e: unknown): 'retry' | 'pause' {
    if (isSessionGone(e)) {
      this.stepDown('session gone');
      return 'retry'; // the state check decides: a renewed session, or the end
    }
    if (isConnectionLoss(e)) {
      if (this.spec.lostOn === 'suspended') this.stepDown('connection lost');
      return 'retry';
    }
    return 'pause';
  }

  /** getData with a data watch, reusing the one still armed on the same node in the same session. */
  private async readWatched(path: string): Promise<{ stat: Stat; watch: Promise<unknown> }> {
    const { client } = this.spec;
    const armed = this.watched;
    if (armed !== undefined && armed.path === path && armed.sessionId === client.sessionId && !armed.settled) {
      const { stat } = await client.getData(path);
      return { stat, watch: armed.fired };
    }
    const sessionId = client.sessionId;
    const { stat, watch } = await client.getData(path, { watch: true });
    const fired = watch ?? Promise.resolve();
    const entry = { path, sessionId, fired, settled: false };
    const settle = (): void => {
      entry.settled = true;
    };
    fired.then(settle, settle);
    this.watched = entry;
    return { stat, watch: fired };
  }

  /** One pass with our node in place: lead, or wait for our predecessor. Returns when something changed. */
  private async take(entry: Entry, kicked: Promise<void>): Promise<void> {
    const { client, path } = this.spec;
    const { children } = await client.getChildren(path);
    const sorted = sortContenders(children, LATCH_MARKERS);
    removeLateDuplicates(client, path, sorted, entry);
    const ourIndex = indexOfName(sorted, entry.name);
    if (ourIndex < 0) {
      this.stepDown('our node is gone');
      this.entry = undefined; // our old place cannot come back: join again
      return;
    }
    if (ourIndex === 0) {
      const own = await this.readWatched(entry.path).catch((e: unknown) => {
        if (isNoNode(e)) return undefined;
        throw e;
      });
      if (own === undefined || own.stat.ephemeralOwner !== client.sessionId) {
        this.stepDown('our node is gone');
        this.entry = undefined;
        return;
      }
      // Never begin a term while the connection is in doubt or the session has changed meanwhile.
      if (!isConnectedState(client.state) || client.sessionId !== entry.sessionId) return;
      this.lead(entry);
      await Promise.race([own.watch, kicked]);
      return;
    }
    this.stepDown('not first');
    const pred = sorted[ourIndex - 1];
    if (pred === undefined) return;
    await testHooksOf(this.spec.owner)?.afterGetChildren?.({ children, watch: pred.name });
    try {
      const { watch } = await this.readWatched(joinPath(path, pred.name));
      await Promise.race([watch, kicked]);
    } catch (e) {
      if (!isNoNode(e)) throw e; // NoNode: list again, keep our node
    }
  }
}
