/**
 * ZkClient: the public API. It validates arguments, applies the chroot, builds request specs (requests.ts,
 * requests-multi.ts) and hands them to the session (session/session.ts), which owns the state and the
 * request pipeline; watches go through the client's watch facade (watches.ts). This file holds no state of
 * its own beyond its configuration: it calls methods and reads getters.
 */
import { InvalidArgumentError, type ConnectAttempt } from '../errors/errors.js';
import { DEFAULT_MAX_PACKET } from '../codec/jute/reader.js';
import { raceCancel } from './cancel.js';
import { trackEnsemble } from './ensemble-tracker.js';
import { guaranteedDelete, protectedCreate } from './idempotent.js';
import { retrying, type RetryPolicy } from './retry.js';
import { systemClock, type Clock } from './clock.js';
import { Chroot } from './chroot.js';
import { parseConnectString } from './connect-string.js';
import { attachLogger, listenerErrors } from './logger.js';
import { Dispatcher } from './dispatcher.js';
import { Call, type RequestSpec } from './request.js';
import * as req from './requests.js';
import * as op from './operations.js';
import type { OpContext } from './operations.js';
import { sessionOptions } from './session/options.js';
import { Session } from './session/session.js';
import { stateStream, waitConnected } from './state-waits.js';
import { mkdirp, removeRecursive } from './tree.js';
import { pickCallOptions } from './call-helpers.js';
import { checkTimeout, toBytes } from './validation.js';
import { ClientWatches } from './watches/watches.js';
import type {
  ACL,
  CallOptions,
  CheckWatchType,
  ClientOptions,
  CreateOptions,
  Data,
  Op,
  OpResult,
  PersistentWatch,
  ReadOp,
  ReadResult,
  RemoveWatchType,
  SessionState,
  Stat,
  StateChange,
  WatchEvent,
  WatchListener,
  WatchOptions,
  ReconfigOptions,
} from './types.js';
import type { AdminCalls, GetChildrenResult, GetDataResult, Watched } from './types.js';

export type { ReconfigOptions } from './types.js';

const DEFAULT_SESSION_TIMEOUT = 30_000;

/** The default for omitted options on the hot operations: shared, so a call without options allocates none. */
const NO_OPTIONS = Object.freeze({});

/** A ZooKeeper client: one session, kept across reconnects, and every operation of ZooKeeper 3.8. Make one with `connect()` or `createClient()`. */
export class ZkClient implements AsyncDisposable {
  private readonly session: Session;
  private readonly watches: ClientWatches;
  private readonly dispatcher: Dispatcher;
  private readonly clock: Clock;
  private readonly root: Chroot;
  private readonly maxPacket: number;
  private readonly requestTimeout: number;
  private readonly requestedTimeout: number;
  private readonly retryPolicy: RetryPolicy | undefined;
  private stopTracking: (() => void) | undefined;
  private readonly context: OpContext;
  /** Admin calls (reconfig), kept apart so nobody reconfigures an ensemble by accident. */
  readonly admin: AdminCalls;

  constructor(connectString: string, options: ClientOptions = {}) {
    const parsed = parseConnectString(connectString);
    checkTimeout(options.sessionTimeout, 'sessionTimeout');
    checkTimeout(options.connectTimeout, 'connectTimeout');
    checkTimeout(options.requestTimeout, 'requestTimeout');
    if (options.sessionId !== undefined && options.sessionPassword === undefined) {
      throw new InvalidArgumentError('sessionPassword', 're-attaching to a session needs its password');
    }
    this.root = new Chroot(parsed.chroot);
    this.maxPacket = options.maxPacket ?? DEFAULT_MAX_PACKET;
    this.requestTimeout = options.requestTimeout ?? 0;
    this.requestedTimeout = options.sessionTimeout ?? DEFAULT_SESSION_TIMEOUT;
    this.clock = options.clock ?? systemClock;
    this.retryPolicy = options.retry;
    this.dispatcher = new Dispatcher(listenerErrors(options.logger));
    this.watches = new ClientWatches(this.root, this.dispatcher, (spec, o) => this.call(spec, o), () => this.session.isOver);
    this.session = new Session(sessionOptions(parsed.hosts, options, { sessionTimeout: this.requestedTimeout, maxPacket: this.maxPacket, clock: this.clock, dispatcher: this.dispatcher, watches: this.watches }));
    this.context = { root: this.root, maxPacket: this.maxPacket, watches: this.watches, call: (spec, o) => this.call(spec, o), read: (spec, o) => this.read(spec, o) };
    this.admin = { reconfig: (o) => this.reconfig(o) };
    attachLogger(this, options.logger);
    if (options.trackEnsemble === true) this.stopTracking = trackEnsemble(this);
  }

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

  /** '' when none. */
  get chroot(): string {
    return this.root.root;
  }

  /** The highest zxid seen in a reply. */
  get lastZxid(): bigint {
    return this.session.lastZxid;
  }

  /**
   * Starts the session and resolves once connected. Bounded by `timeout` (default: the requested session
   * timeout); on failure the client is closed, so nothing keeps dialling in the background.
   */
  async connect(options: CallOptions = {}): Promise<this> {
    checkTimeout(options.timeout);
    if (this.session.state === 'idle') this.session.start();
    try {
      await this.connected({
        timeout: options.timeout ?? this.requestedTimeout,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (err) {
      await this.close();
      throw err;
    }
    return this;
  }

  /** Resolves when in a connected state; rejects when expired, closed or auth-failed (or on timeout/abort). */
  connected(options: CallOptions = {}): Promise<void> {
    return waitConnected(this.session, options, this.clock);
  }

  /** Every state change from now on, in order; ends after a terminal state (or on abort/return). */
  states(options: { signal?: AbortSignal } = {}): AsyncIterable<StateChange> {
    return stateStream(this.session, options, this.clock);
  }

  /** Calls `listener` on every state change; returns the function that removes it. */
  onStateChange(listener: (change: StateChange) => void): () => void {
    return this.session.onStateChange(listener);
  }

  /** A new server list (same chroot); this client moves with the probability that evens the load (host-provider.ts). */
  updateServers(connectString: string): boolean {
    const parsed = parseConnectString(connectString);
    if (parsed.chroot !== this.root.root) throw new InvalidArgumentError('connectString', `the chroot cannot change (${this.root.root || '/'} → ${parsed.chroot || '/'})`);
    return this.session.updateServers(parsed.hosts);
  }

  /** Each failed attempt to reach a server while not connected (refused, not found, TLS, handshake timeout…). */
  onConnectFailure(listener: (attempt: ConnectAttempt) => void): () => void {
    return this.session.onConnectFailure(listener);
  }

  /** Ends the session (its ephemeral nodes go at once) and rejects whatever is pending with ClientClosedError. Idempotent. */
  close(): Promise<void> {
    this.stopTracking?.();
    return this.session.close();
  }

  /** The same as close(), for `await using zk = await connect(…)`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---- plumbing -------------------------------------------------------------------------------------

  /** A call that is safe to repeat: retried under the call's or the client's retry policy, if any. */
  private read<T>(spec: RequestSpec<T>, options: CallOptions | undefined): Promise<T> {
    const policy = options?.retry ?? this.retryPolicy;
    if (policy === undefined) return this.call(spec, options);
    return retrying(() => this.call(spec, options), policy, this.clock, options?.signal);
  }

  private call<T>(spec: RequestSpec<T>, options: CallOptions | undefined): Promise<T> {
    const timeout = options?.timeout;
    checkTimeout(timeout);
    const limit = timeout ?? this.requestTimeout;
    const signal = options?.signal;
    const cancel = signal === undefined && limit <= 0 ? undefined : { signal, timeout: limit };
    const call = new Call(spec, this.dispatcher, cancel, this.session, this.clock);
    if (call.phase === 'queued') this.session.submit(call);
    return call.promise;
  }

  // ---- operations (bodies in operations.ts) ----------------------------------------------------------

  /**
   * Creates a node and resolves with its path (sequential nodes get a suffix) and Stat. Fails with NODE_EXISTS,
   * NO_NODE (no parent)… With `{ protected: true }`, Curator's protection against a lost reply.
   */
  async create(path: string, data?: Data | null, options: CreateOptions = NO_OPTIONS): Promise<{ path: string; stat: Stat }> {
    if (options.protected === true) return protectedCreate(this, path, data, options);
    return op.create(this.context, path, data, options);
  }

  /**
   * Deletes a node; with `{ version }`, only at that version (else BAD_VERSION). Fails with NO_NODE, NOT_EMPTY.
   * With `{ guaranteed: true }`, retried across reconnects until done or the session is gone.
   */
  delete(path: string, options: CallOptions & { version?: number; guaranteed?: boolean } = NO_OPTIONS): Promise<void> {
    try {
      if (options.guaranteed !== true) return op.deleteNode(this.context, path, options);
      op.serverPath(this.context, path);
      return guaranteedDelete(this, path, options.version, options);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The node's Stat, or null when it does not exist. */
  exists(path: string, options?: CallOptions): Promise<Stat | null>;
  /** With `{ watch: true }`: the Stat (or null) and a promise of the next event (created, deleted or dataChanged). */
  exists(path: string, options: WatchOptions & { watch: true }): Promise<{ stat: Stat | null; watch: Promise<WatchEvent> }>;
  /** With a watch callback: the Stat (or null); the callback gets the next event. */
  exists(path: string, options: WatchOptions & { watch: WatchListener }): Promise<Stat | null>;
  exists(path: string, options: WatchOptions = NO_OPTIONS): Promise<Stat | null | { stat: Stat | null; watch: Promise<WatchEvent> }> {
    return op.exists(this.context, path, options);
  }

  /** The node's data (a Buffer) and Stat; a `watch` callback gets the next change. */
  getData(path: string, options?: CallOptions & { watch?: WatchListener }): Promise<GetDataResult>;
  /** With `{ watch: true }`: also a promise of the next change (dataChanged or deleted). */
  getData(path: string, options: WatchOptions & { watch: true }): Promise<Watched<GetDataResult>>;
  /** The general form, for options computed at run time. */
  getData(path: string, options?: WatchOptions): Promise<GetDataResult & { watch?: Promise<WatchEvent> }>;
  getData(path: string, options: WatchOptions = NO_OPTIONS): Promise<GetDataResult & { watch?: Promise<WatchEvent> }> {
    try {
      return op.getData(this.context, path, options);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Replaces the node's data and resolves with its new Stat; with `{ version }`, only at that version (else BAD_VERSION). */
  setData(path: string, data: Data | null, options: CallOptions & { version?: number } = NO_OPTIONS): Promise<Stat> {
    try {
      return op.setData(this.context, path, data, options);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The node's ACL and Stat. */
  getACL(path: string, options: CallOptions = {}): Promise<{ acl: ACL[]; stat: Stat }> {
    return op.getACL(this.context, path, options);
  }

  /** Replaces the node's ACL; with `{ version }`, only at that ACL version. */
  setACL(path: string, acl: ACL[], options: CallOptions & { version?: number } = {}): Promise<Stat> {
    return op.setACL(this.context, path, acl, options);
  }

  /** The names of the node's children (unsorted) and its Stat; a `watch` callback gets the next change. */
  getChildren(path: string, options?: CallOptions & { watch?: WatchListener }): Promise<GetChildrenResult>;
  /** With `{ watch: true }`: also a promise of the next change (childrenChanged or deleted). */
  getChildren(path: string, options: WatchOptions & { watch: true }): Promise<Watched<GetChildrenResult>>;
  /** The general form, for options computed at run time. */
  getChildren(path: string, options?: WatchOptions): Promise<GetChildrenResult & { watch?: Promise<WatchEvent> }>;
  getChildren(path: string, options: WatchOptions = NO_OPTIONS): Promise<GetChildrenResult & { watch?: Promise<WatchEvent> }> {
    return op.getChildren(this.context, path, options);
  }

  /** Waits until the server this client talks to has caught up with the leader, so a later read sees every write committed before. */
  sync(path: string, options: CallOptions = {}): Promise<void> {
    return op.sync(this.context, path, options);
  }

  /** Applies every op atomically, or none: a failure rejects with MultiError (which op, and why). */
  multi(operations: Op[], options: CallOptions = {}): Promise<OpResult[]> {
    return op.multi(this.context, operations, options);
  }

  /** Several reads in one round trip; each slot holds its result or its own error. */
  multiRead(reads: ReadOp[], options: CallOptions = {}): Promise<ReadResult[]> {
    return op.multiRead(this.context, reads, options);
  }

  /** The ephemeral nodes of this session whose paths start with `prefixPath`. */
  getEphemerals(prefixPath = '/', options: CallOptions = {}): Promise<string[]> {
    return op.getEphemerals(this.context, prefixPath, options);
  }

  /** The number of nodes below `path`, at every depth. */
  getAllChildrenNumber(path: string, options: CallOptions = {}): Promise<number> {
    return op.getAllChildrenNumber(this.context, path, options);
  }

  /** The identities the server has authenticated this session as. */
  whoAmI(options: CallOptions = {}): Promise<{ authScheme: string; user: string }[]> {
    return op.whoAmI(this.context, options);
  }

  /** Sets a persistent watch (or a persistent-recursive one, on the whole subtree) and resolves with its handle. */
  addWatch(path: string, mode: 'persistent' | 'persistent-recursive', options: CallOptions = {}): Promise<PersistentWatch> {
    return op.addWatch(this.context, path, mode, options);
  }

  /** Removes this client's watches of `type` on `path` on the server (and here); `{ local: true }`: here only, even when disconnected. */
  removeWatches(path: string, type: RemoveWatchType, options: CallOptions & { local?: boolean } = {}): Promise<void> {
    return op.removeWatches(this.context, path, type, options);
  }

  /** Fails with NO_WATCHER unless the server holds a watch of `type` on `path` for this session. */
  checkWatches(path: string, type: CheckWatchType, options: CallOptions = {}): Promise<void> {
    return op.checkWatches(this.context, path, type, options);
  }

  /** The ensemble configuration; the watch is on the raw /zookeeper/config, never under the chroot. */
  getConfig(options: WatchOptions = {}): Promise<GetDataResult & { watch?: Promise<WatchEvent> }> {
    return op.getConfig(this.context, options);
  }

  private async reconfig(options: ReconfigOptions): Promise<GetDataResult> {
    return this.call(req.reconfig(options), options);
  }

  /** Adds a credential to the session (and to every later reconnect). Resolves once the server accepts it. */
  async addAuth(scheme: string, auth: Data, options: CallOptions = {}): Promise<void> {
    if (typeof scheme !== 'string' || scheme === '') throw new InvalidArgumentError('scheme', 'scheme must be a non-empty string');
    const bytes = toBytes(auth, this.maxPacket) ?? new Uint8Array(0);
    // The credential stays registered either way; a caller who gives up just stops waiting for the answer.
    await raceCancel(this.session.addAuth(scheme, bytes), options, 'addAuth', this.clock);
  }

  // ---- helpers --------------------------------------------------------------------------------------

  /** Creates `path` and every missing ancestor (persistent; the last one with `options.mode`). */
  mkdirp(path: string, options: CreateOptions = {}): Promise<void> {
    return mkdirp(this, path, options);
  }

  /** Deletes `path` and everything under it (depth first); a node that vanished meanwhile is fine. */
  removeRecursive(path: string, options: CallOptions = {}): Promise<void> {
    return removeRecursive(this, path, options);
  }
}

/** createClient does no I/O; `connect()` starts the session. */
export function createClient(connectString: string, options?: ClientOptions): ZkClient {
  return new ZkClient(connectString, options);
}

/** createClient + connect; on failure the client is closed. */
export async function connect(connectString: string, options?: ClientOptions & { signal?: AbortSignal; timeout?: number }): Promise<ZkClient> {
  return new ZkClient(connectString, options).connect(pickCallOptions(options ?? {}));
}

/** `reconfig(client, …)`: the same as `client.admin.reconfig(…)`. */
export function reconfig(client: ZkClient, options: ReconfigOptions): Promise<GetDataResult> {
  return client.admin.reconfig(options);
}
