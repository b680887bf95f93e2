/**
 * ZkClient: the public API. Each operation is one line calling its body in operations.ts (validation, the
 * chroot, the request spec) with the client's OpContext, which hands requests to the session
 * (session/session.ts); the session owns the state, the connections and the watches. This file holds no state
 * of its own beyond its configuration, its on/once registrations (events.ts) and the background writes it
 * finishes (background-writes.ts): it calls methods and reads getters.
 */
import { InvalidArgumentError, type ConnectAttempt } from '../errors/errors.js';
import { DEFAULT_MAX_PACKET } from '../codec/jute/reader.js';
import { BackgroundWrites, writeOptions, type WriteOptions } from './background-writes.js';
import { trackEnsemble } from './ensemble-tracker.js';
import { systemClock, type Clock } from './clock.js';
import { chrootOf, type Chroot } from './chroot.js';
import { parseConnectString, type HostAddress } from './connect-string.js';
import { validatePath } from './paths.js';
import { awaitConnect } from './first-connect.js';
import { listenerErrors } from './logger.js';
import { Dispatcher } from './dispatcher.js';
import { ClientListeners, checkEventName, checkListener, type ClientEventListener, type ClientEvents } from './events.js';
import * as op from './operations.js';
import { OpContext } from './op-context.js';
import { namespaceNode, namespaceRoot } from './namespace.js';
import { sessionOptions } from './session/options.js';
import { Session } from './session/session.js';
import { describe as hostLabel, sharedHosts } from './session/transport.js';
import { stateStream, waitConnected } from './state-waits.js';
import { clientStats, type ClientStats } from './stats.js';
import { NO_OPTIONS, checkCallOptions, checkCredentials, checkSignal } from './validation.js';
import { checkOptionKeys } from '../errors/option-keys.js';
import { aclResolver } from './acl-provider.js';
import { CLIENT_OPTION_KEYS, checkClientOptions } from './client-options.js';
import type { ACL, CallOptions, CheckWatchType, ClientOptions, CloseReport, CreateOptions, Data, Op, OpResult,
  PendingWrite, PersistentWatch, ReadOp, ReadResult, RemoveWatchType, RemoveWatcherType, SessionState, Stat,
  StateChange, WatchEvent, WatchListener, WatchOptions, RecipeErrorPolicy } from './types.js';
import type { AdminCalls, GetChildrenResult, GetDataResult, Watched } from './types.js';

export type { ReconfigOptions } from './types.js';

const DEFAULT_SESSION_TIMEOUT = 30_000;

/** A ZooKeeper client: one session, kept across reconnects, and every operation of ZooKeeper 3.8. Make one with `connect()` or `createClient()`. {@include ./zk-client.md}
 * @example {@include ./zk-client.example.md}
 */
export class ZkClient implements AsyncDisposable {
  private readonly session: Session;
  private readonly requestedTimeout: number;
  private readonly waitForServer: boolean;
  private readonly errorPolicy: RecipeErrorPolicy | undefined;
  /** The hosts in connect-string order, named as connect failures name them when a connect needs them (UnreachableError). */
  private hosts: readonly HostAddress[];
  private stopTracking: (() => void) | undefined;
  /** What every operation is handed (operations.ts). */
  private readonly ops: OpContext;
  /** Registrations of on/once (events.ts), made on the first. */
  private listeners: ClientListeners | null = null;
  private readonly isView: boolean = false; // a namespace view (namespace()) does not own the session
  /** Guaranteed deletes and protected-create clean-ups still being finished (background-writes.ts), made on first use. */
  private writes: BackgroundWrites | null = null;
  /** What the background writes are made with: one shared record for every client that sets neither option. */
  private readonly writeOptions: WriteOptions;
  private closing: Promise<CloseReport> | undefined;
  private adminCalls: AdminCalls | null = null;

  constructor(connectString: string, options: ClientOptions = {}) {
    const parsed = parseConnectString(connectString);
    checkClientOptions(options, 'createClient', CLIENT_OPTION_KEYS);
    // The chroot, max packet and clock are kept once, in `ops` (this.root and the others below read them there).
    const root = chrootOf(parsed.chroot);
    const maxPacket = options.maxPacket ?? DEFAULT_MAX_PACKET;
    checkCredentials(options.auth, maxPacket);
    this.requestedTimeout = options.sessionTimeout ?? DEFAULT_SESSION_TIMEOUT;
    this.waitForServer = options.waitForServer ?? false;
    this.hosts = sharedHosts(parsed.hosts);
    const clock = options.clock ?? systemClock;
    const report = listenerErrors(options.logger);
    const dispatcher = new Dispatcher(report);
    // Literals written out: an object made by a spread has a shape of its own, so every read of it misses its cache.
    this.session = new Session(sessionOptions(this.hosts, options, { root, maxPacket, clock, dispatcher, sessionTimeout: this.requestedTimeout }));
    this.ops = new OpContext(this.session, { root, maxPacket, clock, dispatcher, requestTimeout: options.requestTimeout ?? 0, retry: options.retry, aclFor: aclResolver(options.aclProvider) });
    this.errorPolicy = options.recipeErrorPolicy;
    this.writeOptions = writeOptions(options);
    if (options.trackEnsemble === true) this.stopTracking = trackEnsemble(this);
  }

  private get root(): Chroot { return this.ops.root; }
  private get clock(): Clock { return this.ops.clock; }

  private get background(): BackgroundWrites { return (this.writes ??= new BackgroundWrites(this, this.session, this.writeOptions, this.clock, listenerErrors(this.writeOptions.logger), this.closing !== undefined)); }

  /** Admin calls (reconfig), kept apart so nobody reconfigures an ensemble by accident. Made on first use. */
  get admin(): AdminCalls { return (this.adminCalls ??= { reconfig: (o) => op.reconfig(this.ops, o) }); }

  // ---- session --------------------------------------------------------------------------------------

  /** The session state now (see SessionState). */
  get state(): SessionState {
    return this.session.state;
  }

  /** 0n until the first session. */
  get sessionId(): bigint {
    return this.session.sessionId;
  }

  /** A copy of the session password (with sessionId, enough to re-attach: `createClient(…, { sessionId, sessionPassword })`). */
  get sessionPassword(): Uint8Array {
    return this.session.password;
  }

  /** ms, 0 until connected. */
  get negotiatedTimeout(): number {
    return this.session.negotiatedTimeout;
  }

  /** Counters for a health endpoint, as plain values (see ClientStats and the observability guide). */
  stats(): ClientStats {
    return clientStats(this.session, this.ops.stats);
  }

  /** '' when none. */
  get chroot(): string {
    return this.root.root;
  }

  /** The highest zxid seen in a reply. */
  get lastZxid(): bigint {
    return this.session.lastZxid;
  }

  /** ClientOptions.recipeErrorPolicy: what recipes without their own `lostOn` follow (undefined: their defaults). */
  get recipeErrorPolicy(): RecipeErrorPolicy | undefined {
    return this.errorPolicy;
  }

  /** The ACL a create without `acl` gets at `path` (ClientOptions.aclProvider; else world:anyone ALL). */
  aclFor(path: string): ACL[] {
    validatePath(path, { sequential: true });
    return this.ops.aclFor(path);
  }

  /**
   * Starts the session and resolves once connected. Bounded by `timeout` (default: the requested session
   * timeout); on failure the client is closed, so nothing keeps dialling in the background. The connect that
   * starts the session rejects at once with UnreachableError when every host refused, does not resolve or is
   * not a ZooKeeper port, unless the client was made with `waitForServer: true` (first-connect.ts).
   */
  async connect(options: CallOptions = {}): Promise<this> {
    checkCallOptions(options, 'zk.connect');
    const starts = this.session.state === 'idle';
    const hosts = starts && !this.waitForServer ? this.hosts.map((h: HostAddress) => hostLabel(h)) : null;
    try {
      await awaitConnect(this.session, options, options.timeout ?? this.requestedTimeout, this.clock, hosts, () => {
        if (starts) this.session.start();
      });
    } catch (err) {
      await this.close();
      throw err;
    }
    return this;
  }

  /** Resolves when in a connected state; rejects when expired, closed or auth-failed (or on timeout/abort). */
  connected(options: CallOptions = {}): Promise<void> {
    try {
      checkCallOptions(options, 'zk.connected');
    } catch (err) {
      return Promise.reject(err);
    }
    return waitConnected(this.session, options, this.clock);
  }

  /** Every state change from now on, in order; ends after a terminal state (or on abort/return). */
  states(options: { signal?: AbortSignal } = {}): AsyncIterable<StateChange> {
    checkOptionKeys(options, ['signal'], 'zk.states');
    checkSignal(options.signal);
    return stateStream(this.session, options, this.clock);
  }

  /** Calls `listener` on every state change; returns the function that removes it. */
  onStateChange(listener: (change: StateChange) => void): () => void {
    checkListener(listener);
    return this.session.onStateChange(listener);
  }

  /** A new server list (same chroot); this client moves with the probability that evens the load (host-provider.ts). */
  updateServers(connectString: string): boolean {
    const parsed = parseConnectString(connectString);
    if (parsed.chroot !== this.root.root) throw new InvalidArgumentError('connectString', `the chroot cannot change (${this.root.root || '/'} → ${parsed.chroot || '/'})`);
    this.hosts = sharedHosts(parsed.hosts);
    return this.session.updateServers(parsed.hosts);
  }

  /** Each failed attempt to reach a server while not connected (refused, not found, TLS, handshake timeout…). */
  onConnectFailure(listener: (attempt: ConnectAttempt) => void): () => void {
    checkListener(listener);
    return this.session.onConnectFailure(listener);
  }

  /** A view under `path` sharing this session, state and watches (Curator's usingNamespace; namespace.ts): every path relative to `path`, events' too, its node made on first use; views nest and finish their background writes in the client's (made here if not yet); its close() leaves the session open. */
  namespace(path: string): ZkClient {
    const root = namespaceRoot(this.root, path);
    const ops = this.ops.under(root, namespaceNode(() => this.mkdirp(path)));
    return Object.assign(Object.create(ZkClient.prototype) as ZkClient, this, { ops, isView: true, listeners: null, stopTracking: undefined, writes: this.background });
  }

  /** The background writes not finished yet (guaranteed deletes, protected-create clean-ups), oldest first; also `'backgroundWrite'` events. */
  get pendingWrites(): PendingWrite[] {
    return this.background.pending;
  }

  /**
   * Ends the session on the server with its ephemeral nodes (between connections, over one more; `lingering` if
   * none answered), rejects what is pending with ClientClosedError, reports the writes it stopped. Idempotent.
   */
  close(): Promise<CloseReport> {
    if (this.isView) return Promise.resolve({ unfinished: [], lingering: false });
    return (this.closing ??= (async () => {
      this.stopTracking?.();
      const unfinished = this.writes?.cancelAll() ?? []; // none made: none to stop
      const lingering = await this.session.close();
      return { unfinished, lingering };
    })());
  }

  /** The same as close(), for `await using zk = await connect(…)`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---- operations (bodies in operations.ts) ----------------------------------------------------------

  /**
   * Creates a node and resolves with its path (sequential nodes get a suffix) and Stat. Fails with NODE_EXISTS,
   * NO_NODE (no parent)… `{ protected: true }`: Curator's protection, and no orphan after a timeout or abort.
   */
  create(path: string, data?: Data | null, options: CreateOptions = NO_OPTIONS): Promise<{ path: string; stat: Stat }> {
    if (options?.protected === true) return op.protectedCreate(this.ops, this, this.background, path, data, options);
    return op.create(this.ops, path, data, options);
  }

  /**
   * Deletes a node; with `{ version }`, only at that version (else BAD_VERSION). Fails with NO_NODE, NOT_EMPTY.
   * With `{ guaranteed: true }`, finished in the background across reconnects and session renewals (see
   * `pendingWrites`); the call waits for it, and a caller's signal/timeout ends only the wait.
   */
  delete(path: string, options: CallOptions & { version?: number; guaranteed?: boolean } = NO_OPTIONS): Promise<void> {
    if (options?.guaranteed === true) return op.guaranteedDelete(this.ops, this, this.background, path, options);
    return op.deleteNode(this.ops, path, options);
  }

  /** The node's Stat, or null when it does not exist. */
  exists(path: string, options?: CallOptions): Promise<Stat | null>;
  /** With `{ watch: true }`: the Stat (or null) and a promise of the next event (created, deleted or dataChanged). */
  exists(path: string, options: WatchOptions & { watch: true }): Promise<{ stat: Stat | null; watch: Promise<WatchEvent> }>;
  /** With a watch callback: the Stat (or null); the callback gets the next event. */
  exists(path: string, options: WatchOptions & { watch: WatchListener }): Promise<Stat | null>;
  exists(path: string, options: WatchOptions = NO_OPTIONS): Promise<Stat | null | { stat: Stat | null; watch: Promise<WatchEvent> }> {
    return op.exists(this.ops, path, options);
  }

  /** The node's data (a Buffer) and Stat; a `watch` callback gets the next change. */
  getData(path: string, options?: CallOptions & { watch?: WatchListener }): Promise<GetDataResult>;
  /** With `{ watch: true }`: also a promise of the next change (dataChanged or deleted). */
  getData(path: string, options: WatchOptions & { watch: true }): Promise<Watched<GetDataResult>>;
  /** The general form, for options computed at run time. */
  getData(path: string, options?: WatchOptions): Promise<GetDataResult & { watch?: Promise<WatchEvent> }>;
  getData(path: string, options: WatchOptions = NO_OPTIONS): Promise<GetDataResult & { watch?: Promise<WatchEvent> }> {
    return op.getData(this.ops, path, options);
  }

  /** Replaces the node's data and resolves with its new Stat; with `{ version }`, only at that version (else BAD_VERSION). */
  setData(path: string, data: Data | null, options: CallOptions & { version?: number } = NO_OPTIONS): Promise<Stat> {
    return op.setData(this.ops, path, data, options);
  }

  /** The node's ACL and Stat. */
  getACL(path: string, options: CallOptions = {}): Promise<{ acl: ACL[]; stat: Stat }> {
    return op.getACL(this.ops, path, options);
  }

  /** Replaces the node's ACL; with `{ version }`, only at that ACL version. */
  setACL(path: string, acl: ACL[], options: CallOptions & { version?: number } = {}): Promise<Stat> {
    return op.setACL(this.ops, path, acl, options);
  }

  /** The names of the node's children (unsorted) and its Stat; a `watch` callback gets the next change. */
  getChildren(path: string, options?: CallOptions & { watch?: WatchListener }): Promise<GetChildrenResult>;
  /** With `{ watch: true }`: also a promise of the next change (childrenChanged or deleted). */
  getChildren(path: string, options: WatchOptions & { watch: true }): Promise<Watched<GetChildrenResult>>;
  /** The general form, for options computed at run time. */
  getChildren(path: string, options?: WatchOptions): Promise<GetChildrenResult & { watch?: Promise<WatchEvent> }>;
  getChildren(path: string, options: WatchOptions = NO_OPTIONS): Promise<GetChildrenResult & { watch?: Promise<WatchEvent> }> {
    return op.getChildren(this.ops, path, options);
  }

  /** Waits until the server this client talks to has caught up with the leader, so a later read sees every write committed before. */
  sync(path: string, options: CallOptions = {}): Promise<void> {
    return op.sync(this.ops, path, options);
  }

  /** Applies every op atomically, or none: a failure rejects with MultiError (which op, and why). */
  multi(operations: Op[], options: CallOptions = {}): Promise<OpResult[]> {
    return op.multi(this.ops, operations, options);
  }

  /** Several reads in one round trip; each slot holds its result or its own error. */
  multiRead(reads: ReadOp[], options: CallOptions = {}): Promise<ReadResult[]> {
    return op.multiRead(this.ops, reads, options);
  }

  /** The ephemeral nodes of this session whose paths start with `prefixPath`. */
  getEphemerals(prefixPath = '/', options: CallOptions = {}): Promise<string[]> {
    return op.getEphemerals(this.ops, prefixPath, options);
  }

  /** The number of nodes below `path`, at every depth. */
  getAllChildrenNumber(path: string, options: CallOptions = {}): Promise<number> {
    return op.getAllChildrenNumber(this.ops, path, options);
  }

  /** The identities the server has authenticated this session as. */
  whoAmI(options: CallOptions = {}): Promise<{ authScheme: string; user: string }[]> {
    return op.whoAmI(this.ops, options);
  }

  /** Sets a persistent watch (or a persistent-recursive one, on the whole subtree) and resolves with its handle. */
  addWatch(path: string, mode: 'persistent' | 'persistent-recursive', options: CallOptions = {}): Promise<PersistentWatch> {
    return op.addWatch(this.ops, path, mode, options);
  }

  /** Removes EVERY watcher of `type` on `path` (a recipe's too) there and here; `{ local: true }`: here only. One: removeWatcher. */
  removeWatches(path: string, type: RemoveWatchType, options: CallOptions & { local?: boolean } = {}): Promise<void> {
    return op.removeWatches(this.ops, path, type, options);
  }

  /** Removes ONE watcher (a `watch` listener or `watch: true` promise, which resolves with dataWatchRemoved/childWatchRemoved) of `type` on `path`; the server's watch goes only when no other watcher of the session needs it (Java's removeWatches(path, watcher, type, local)). NO_WATCHER if not set; `local`: here only. */
  removeWatcher(path: string, watcher: WatchListener | Promise<WatchEvent>, type: RemoveWatcherType = 'any', options: CallOptions & { local?: boolean } = {}): Promise<void> {
    return op.removeWatcher(this.ops, path, watcher, type, options);
  }

  /** Fails with NO_WATCHER unless the server holds a watch of `type` on `path` for this session. */
  checkWatches(path: string, type: CheckWatchType, options: CallOptions = {}): Promise<void> {
    return op.checkWatches(this.ops, path, type, options);
  }

  /** The ensemble configuration; the watch is on the raw /zookeeper/config, never under the chroot. */
  getConfig(options: WatchOptions = {}): Promise<GetDataResult & { watch?: Promise<WatchEvent> }> {
    return op.getConfig(this.ops, options);
  }

  /** Adds a credential to the session (and to every later reconnect). Resolves once the server accepts it. */
  addAuth(scheme: string, auth: Data, options: CallOptions = {}): Promise<void> {
    return op.addAuth(this.session, { maxPacket: this.ops.maxPacket, clock: this.clock }, scheme, auth, options);
  }

  // ---- helpers --------------------------------------------------------------------------------------

  /** Creates `path` and every missing ancestor (persistent; the last one with `options.mode`). */
  mkdirp(path: string, options: CreateOptions = {}): Promise<void> {
    return op.mkdirp(this.ops, this, path, options);
  }

  /** Deletes `path` and everything under it (depth first); a node that vanished meanwhile is fine. */
  removeRecursive(path: string, options: CallOptions = {}): Promise<void> {
    return op.removeRecursive(this.ops, this, path, options);
  }

  // ---- events (events.ts) ------------------------------------------------------------------------------

  /** Calls `listener` on every `event` from now on (see {@link ClientEvents}). Returns the client. */
  on<E extends keyof ClientEvents>(event: E, listener: ClientEventListener<E>): this {
    checkListener(listener);
    (this.listeners ??= new ClientListeners(this.session, this.background)).add(event, listener, false);
    return this;
  }

  /** Calls `listener` on the next `event` only. Returns the client. */
  once<E extends keyof ClientEvents>(event: E, listener: ClientEventListener<E>): this {
    checkListener(listener);
    (this.listeners ??= new ClientListeners(this.session, this.background)).add(event, listener, true);
    return this;
  }

  /** Removes a listener added with on/once (the most recent registration of it for `event`). */
  off<E extends keyof ClientEvents>(event: E, listener: ClientEventListener<E>): this {
    checkEventName(event);
    checkListener(listener);
    this.listeners?.remove(event, listener);
    return this;
  }

  /** The same as {@link ZkClient.off}, under the name Node's `events` helpers call. */
  removeListener<E extends keyof ClientEvents>(event: E, listener: ClientEventListener<E>): this {
    return this.off(event, listener);
  }
}
