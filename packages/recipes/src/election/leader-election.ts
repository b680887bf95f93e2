/**
 * Leader election, latch style (Curator LeaderLatch): once started, a participant stays in the election until
 * closed, and leads whenever its node is the lowest. The algorithm and the fault handling are the Candidacy's
 * (candidacy.ts); this class is the public face: `isLeader`, `leadership` (node, fencing token, signal),
 * `awaitLeadership()`, `onChange()`/`changes()` and `participants()`.
 *
 * Leadership ends (its signal fires) when the session is lost, and at suspension with `lostOn: 'suspended'`.
 * After a session renewal the election re-joins by itself with a new node, so the same object leads again
 * later; only a client whose expiry is final (renewSession: false), or a closed one, ends the election.
 */
import { joinPath, systemClock, type ACL, type Clock } from '@zkts/protocol';

import { RecipeClosedError } from '../errors.js';
import {
  aclRule, lostOnFor, withAcl,
  ChangeFeed, checkArg, checkClientAndPath, checkOptions, checkWait, childrenOrEmpty, rules, type OptionRules, openScope, readNodes, sortContenders, utf8, within, type RecipeClient, type WaitOptions,
} from '../internal/index.js';
import { LOST_ON, type LostOn } from '../locks/index.js';
import { Candidacy, LATCH_MARKERS, type ElectionStats, type Leadership } from './candidacy.js';

export type { Leadership };

/** Options of a LeaderElection. */
export interface LeaderElectionOptions {
  /** Our participant id, stored in our node. Default: a random id. */
  id?: string;
  /** When leadership counts as lost. Default: the client's recipeErrorPolicy, else 'expired'. */
  lostOn?: LostOn;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
  /** Time source for `awaitLeadership`'s timeout and the retry pause after an error (default: the system clock). */
  clock?: Clock;
}

const OPTION_RULES: OptionRules<LeaderElectionOptions> = { id: rules.nonEmptyString, lostOn: rules.oneOf(LOST_ON), clock: rules.clock, acl: aclRule };

/** One participant of an election, in queue order. */
export interface ElectionParticipant {
  id: string;
  node: string;
  isLeader: boolean;
}

/**
 * Latch-style leader election, Curator `LeaderLatch`'s layout (`_c_<uuid>-latch-<seq>`): the participant whose
 * node is first leads until it leaves, closes or loses its session. `start()` joins; `awaitLeadership()` resolves,
 * once we lead, with a signal that fires when the term ends; `leadership` has the term's fencing token;
 * `onChange()`/`changes()` follow it. After a session renewal it joins again by itself.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { LeaderElection } from '@zkts/recipes';
 *
 * await using zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181');
 * const a = new LeaderElection(zk, '/example/election', { id: 'a' });
 * const b = new LeaderElection(zk, '/example/election', { id: 'b' });
 * await a.start(); // joined first: leads
 * await b.start();
 * const term = await a.awaitLeadership({ timeout: 5_000 });
 * console.log('a leads', a.isLeader, 'b leads', b.isLeader);
 * await a.close(); // a leaves: b takes over
 * await b.awaitLeadership({ timeout: 5_000 });
 * console.log("a's term over", term.aborted, 'b leads', b.isLeader);
 * await b.close();
 * await zk.removeRecursive('/example');
 * // a leads true b leads false
 * // a's term over true b leads true
 * ```
 */
export class LeaderElection implements AsyncDisposable {
  readonly client: RecipeClient;
  readonly path: string;
  readonly id: string;
  private readonly clock: Clock;
  private readonly candidacy: Candidacy;
  /** true: a term began; false: it ended. */
  private readonly feed = new ChangeFeed<boolean>();

  constructor(client: RecipeClient, path: string, options: LeaderElectionOptions = {}) {
    checkClientAndPath('LeaderElection', client, path);
    checkOptions('LeaderElection', options, OPTION_RULES);
    this.client = client = withAcl(client, options.acl);
    this.path = path;
    this.id = options.id ?? globalThis.crypto.randomUUID();
    this.clock = options.clock ?? systemClock;
    this.candidacy = new Candidacy({
      client, path, id: this.id, lostOn: lostOnFor(client, options.lostOn, 'expired'), clock: this.clock, owner: this, recipe: 'LeaderElection',
      onChange: (leadership) => this.feed.emit(leadership !== undefined),
    });
  }

  /** Whether this participant leads now. */
  get isLeader(): boolean {
    return this.candidacy.leadership !== undefined;
  }

  /** The current term (node, fencing token, session, signal), or undefined when we do not lead. */
  get leadership(): Leadership | undefined {
    return this.candidacy.leadership;
  }

  /** Our node's full path, once created. It changes when we re-join (after a renewal, or if it was deleted). */
  get node(): string | undefined {
    return this.candidacy.node;
  }

  /** Joins, re-joins and terms so far (diagnostics). */
  get stats(): Readonly<ElectionStats> {
    return this.candidacy.stats;
  }

  /** The last unexpected error of the election loop (it retries after it). */
  get lastError(): unknown {
    return this.candidacy.lastError;
  }

  /** Joins the election; resolves once our node exists (leadership may follow at any time). */
  start(): Promise<void> {
    return this.candidacy.start();
  }

  /**
   * Resolves when we are leader, with an AbortSignal that fires when leadership ends (`leadership` has the
   * term's fencing token). Rejects on timeout/abort, or if the election is closed first.
   */
  async awaitLeadership(options: WaitOptions = {}): Promise<AbortSignal> {
    checkWait('LeaderElection.awaitLeadership', options);
    const scope = openScope(options, `leadership ${this.path}`, this.clock);
    try {
      for (;;) {
        const changed = this.feed.changed.next();
        const term = this.candidacy.leadership;
        if (term !== undefined) return term.signal;
        if (this.candidacy.closed) throw new RecipeClosedError(`leader election ${this.path} closed`);
        await within(scope, changed);
      }
    } finally {
      scope?.dispose();
    }
  }

  /** Calls `listener` on every change of leadership; returns the unsubscribe function. */
  onChange(listener: (leader: boolean) => void): () => void {
    checkArg('LeaderElection.onChange', 'listener', listener, rules.function);
    return this.feed.on(listener);
  }

  /** Leadership changes as an async iterable (true: became leader, false: lost it), until closed or broken off. */
  changes(options: { signal?: AbortSignal } = {}): AsyncIterableIterator<boolean> {
    return this.feed.iterate(options, `leadership changes ${this.path}`, this.clock);
  }

  /** Participants in election order; the first is the leader. */
  async participants(): Promise<ElectionParticipant[]> {
    const sorted = sortContenders(await childrenOrEmpty(this.client, this.path), LATCH_MARKERS);
    const read = await readNodes(this.client, sorted.map((c) => joinPath(this.path, c.name)));
    return read.map(({ path, data }, i) => ({ id: utf8(data), node: path, isLeader: i === 0 }));
  }

  /** Leaves the election: gives up leadership and deletes our node. */
  async close(): Promise<void> {
    if (this.candidacy.closed) return;
    const closing = this.candidacy.close();
    this.feed.end();
    await closing;
  }

  /** The same as close(): leaves the election. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
