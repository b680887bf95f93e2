/**
 * ZkClient: the public API. It validates arguments, applies the chroot, builds request specs (requests.ts,
 * requests-multi.ts) and hands them to the session (session/session.ts), which owns the state and the
 * request pipeline; watches go through the client's watch facade (watches.ts). This file holds no state of
 * its own beyond its configuration: it calls methods and reads getters.
 */
import { InvalidArgumentError, type ConnectAttempt } from '../errors/errors.js';
import { DEFAULT_MAX_PACKET } from '../jute/reader.js';
import { CONFIG_NODE } from '../records/config.js';
import { Acls, validateAcl } from './acl.js';
import { raceCancel } from './cancel.js';
import { systemClock, type Clock } from './clock.js';
import { Chroot } from './chroot.js';
import { parseConnectString } from './connect-string.js';
import { attachLogger, listenerErrors } from './logger.js';
import { Dispatcher } from './dispatcher.js';
import { validatePath } from './paths.js';
import { Call, type RequestSpec } from './request.js';
import * as req from './requests.js';
import { multi as multiSpec, multiRead as multiReadSpec, prepareMultiOp } from './requests-multi.js';
import { Session } from './session/session.js';
import { isTerminal } from './session/session-state.js';
import { stateStream, waitConnected } from './state-waits.js';
import { mkdirp, removeRecursive } from './tree.js';
import { pickCallOptions, watcherTypeOf } from './call-helpers.js';
import { checkCreateMode, checkTimeout, checkVersion, toBytes } from './validation.js';
import { ClientWatches } from './watches.js';
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
const DEFAULT_MAX_QUEUED = 10_000;
const utf8 = new TextEncoder();

/** The default for omitted options on the hot operations: shared, so a call without options allocates none. */
const NO_OPTIONS = Object.freeze({});

/** A ZooKeeper client: one session, kept across reconnects, and every operation of ZooKeeper 3.8. Make one with `connect()` or `createClient()`. */ export class ZkClient implements AsyncDisposable {
  private readonly session: Session;
  private readonly watches: ClientWatches;
  private readonly dispatcher: Dispatcher;
  private readonly clock: Clock;
  private readonly root: Chroot;
  private readonly maxPacket: number;
  private readonly requestTimeout: number;
  private readonly requestedTimeout: number;
  /** Admin calls (reconfig), kept apart so nobody reconfigures an ensemble by accident. */
  /** Admin calls (reconfig), kept apart so nobody reconfigures an ensemble by accident. */ readonly admin: AdminCalls;

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
    this.dispatcher = new Dispatcher(listenerErrors(options.logger));
    this.watches = new ClientWatches(this.root, this.dispatcher, (spec, o) => this.call(spec, o), () => isTerminal(this.session.state));
    this.session = new Session({
      hosts: parsed.hosts,
      shuffle: options.shuffle ?? true,
      sessionTimeout: this.requestedTimeout,
      connectTimeout: options.connectTimeout,
      maxPacket: this.maxPacket,
      canBeReadOnly: options.canBeReadOnly ?? false,
      tls: options.tls,
      whileSuspended: options.whileSuspended ?? 'queue',
      maxQueued: options.maxQueued ?? DEFAULT_MAX_QUEUED,
      credentials: (options.auth ?? []).map((a) => ({ scheme: a.scheme, auth: typeof a.auth === 'string' ? utf8.encode(a.auth) : a.auth })),
      sessionId: options.sessionId,
      sessionPassword: options.sessionPassword,
      clock: this.clock,
      dispatcher: this.dispatcher,
      watches: this.watches,
    });
    this.admin = { reconfig: (o) => this.reconfig(o) };
    attachLogger(this, options.logger);
  }

  // ---- session --------------------------------------------------------------------------------------

  /** The session state now (see SessionState). */ get state(): SessionState {
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

  /** Calls `listener` on every state change; returns the function that removes it. */ onStateChange(listener: (change: StateChange) => void): () => void {
    return this.session.onStateChange(listener);
  }

  /** Each failed attempt to reach a server while not connected (refused, not found, TLS, handshake timeout…). */
  onConnectFailure(listener: (attempt: ConnectAttempt) => void): () => void {
    return this.session.onConnectFailure(listener);
  }

  /** Ends the session (its ephemeral nodes go at once) and rejects whatever is pending with ClientClosedError. Idempotent. */ close(): Promise<void> {
    return this.session.close();
  }

  /** The same as close(), for `await using zk = await connect(…)`. */ async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---- plumbing -------------------------------------------------------------------------------------

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

  private serverPath(path: string, options?: { sequential?: boolean }): string {
    validatePath(path, options);
    return this.root.toServer(path);
  }

  // ---- operations -----------------------------------------------------------------------------------

  /** Creates a node and resolves with its path (sequential nodes get a suffix) and Stat. Fails with NODE_EXISTS, NO_NODE (no parent)… */ async create(path: string, data?: Data | null, options: CreateOptions = NO_OPTIONS): Promise<{ path: string; stat: Stat }> {
    const mode = checkCreateMode(options.mode, options.ttl);
    const serverPath = this.serverPath(path, { sequential: mode.sequential });
    const acl = options.acl ?? Acls.openUnsafe();
    validateAcl(acl);
    const bytes = toBytes(data, this.maxPacket);
    const result = await this.call(req.create(serverPath, path, bytes, acl, mode), options);
    return { path: this.root.toClient(result.path), stat: result.stat };
  }

  /** Deletes a node; with `{ version }`, only at that version (else BAD_VERSION). Fails with NO_NODE, NOT_EMPTY. */ delete(path: string, options: CallOptions & { version?: number } = NO_OPTIONS): Promise<void> {
    try {
      const version = checkVersion(options.version);
      const serverPath = this.serverPath(path);
      if (serverPath === '/') throw new InvalidArgumentError('path', 'the root node cannot be deleted');
      return this.call(req.deleteNode(serverPath, path, version), options);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The node's Stat, or null when it does not exist. */ exists(path: string, options?: CallOptions): Promise<Stat | null>;
  /** With `{ watch: true }`: the Stat (or null) and a promise of the next event (created, deleted or dataChanged). */ exists(path: string, options: WatchOptions & { watch: true }): Promise<{ stat: Stat | null; watch: Promise<WatchEvent> }>;
  /** With a watch callback: the Stat (or null); the callback gets the next event. */ exists(path: string, options: WatchOptions & { watch: WatchListener }): Promise<Stat | null>;
  async exists(path: string, options: WatchOptions = NO_OPTIONS): Promise<Stat | null | { stat: Stat | null; watch: Promise<WatchEvent> }> {
    const serverPath = this.serverPath(path);
    const w = this.watches.watcherFor(options.watch);
    const stat = await this.call(
      req.exists(serverPath, path, w === undefined ? undefined : (found) => this.watches.register(found ? 'data' : 'exist', serverPath, w.watcher)),
      options,
    );
    if (w?.promise !== undefined) return { stat, watch: w.promise };
    return stat;
  }

  // Not async: the plain read returns the call's own promise (no wrapper promise, no extra microtask hop);
  // synchronous validation failures still surface as a rejected promise, as from an async function.
  /** The node's data (a Buffer) and Stat; a `watch` callback gets the next change. */ getData(path: string, options?: CallOptions & { watch?: WatchListener }): Promise<GetDataResult>;
  /** With `{ watch: true }`: also a promise of the next change (dataChanged or deleted). */ getData(path: string, options: WatchOptions & { watch: true }): Promise<Watched<GetDataResult>>;
  /** The general form, for options computed at run time. */ getData(path: string, options?: WatchOptions): Promise<GetDataResult & { watch?: Promise<WatchEvent> }>;
  getData(path: string, options: WatchOptions = NO_OPTIONS): Promise<GetDataResult & { watch?: Promise<WatchEvent> }> {
    try {
      const serverPath = this.serverPath(path);
      if (options.watch === undefined) return this.call(req.getData(serverPath, path, undefined), options);
      return this.getDataAt(serverPath, path, options);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private async getDataAt(serverPath: string, path: string, options: WatchOptions): Promise<GetDataResult & { watch?: Promise<WatchEvent> }> {
    const w = this.watches.watcherFor(options.watch);
    const result = await this.call(
      req.getData(serverPath, path, w === undefined ? undefined : () => this.watches.register('data', serverPath, w.watcher)),
      options,
    );
    return w?.promise === undefined ? result : { ...result, watch: w.promise };
  }

  /** Replaces the node's data and resolves with its new Stat; with `{ version }`, only at that version (else BAD_VERSION). */ setData(path: string, data: Data | null, options: CallOptions & { version?: number } = NO_OPTIONS): Promise<Stat> {
    try {
      const version = checkVersion(options.version);
      const serverPath = this.serverPath(path);
      const bytes = toBytes(data, this.maxPacket);
      return this.call(req.setData(serverPath, path, bytes, version), options);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The node's ACL and Stat. */ async getACL(path: string, options: CallOptions = {}): Promise<{ acl: ACL[]; stat: Stat }> {
    return this.call(req.getACL(this.serverPath(path), path), options);
  }

  /** Replaces the node's ACL; with `{ version }`, only at that ACL version. */ async setACL(path: string, acl: ACL[], options: CallOptions & { version?: number } = {}): Promise<Stat> {
    const version = checkVersion(options.version);
    const serverPath = this.serverPath(path);
    validateAcl(acl);
    return this.call(req.setACL(serverPath, path, acl, version), options);
  }

  /** The names of the node's children (unsorted) and its Stat; a `watch` callback gets the next change. */ getChildren(path: string, options?: CallOptions & { watch?: WatchListener }): Promise<GetChildrenResult>;
  /** With `{ watch: true }`: also a promise of the next change (childrenChanged or deleted). */ getChildren(path: string, options: WatchOptions & { watch: true }): Promise<Watched<GetChildrenResult>>;
  /** The general form, for options computed at run time. */ getChildren(path: string, options?: WatchOptions): Promise<GetChildrenResult & { watch?: Promise<WatchEvent> }>;
  async getChildren(path: string, options: WatchOptions = NO_OPTIONS): Promise<GetChildrenResult & { watch?: Promise<WatchEvent> }> {
    const serverPath = this.serverPath(path);
    const w = this.watches.watcherFor(options.watch);
    const result = await this.call(
      req.getChildren(serverPath, path, w === undefined ? undefined : () => this.watches.register('child', serverPath, w.watcher)),
      options,
    );
    return w?.promise === undefined ? result : { ...result, watch: w.promise };
  }

  /** Waits until the server this client talks to has caught up with the leader, so a read after it sees every write committed before. */ async sync(path: string, options: CallOptions = {}): Promise<void> {
    await this.call(req.sync(this.serverPath(path), path), options);
  }

  /** Applies every op atomically, or none: a failure rejects with MultiError (which op, and why). */ async multi(ops: Op[], options: CallOptions = {}): Promise<OpResult[]> {
    if (!Array.isArray(ops)) throw new InvalidArgumentError('ops', 'ops must be an array');
    const prepared = ops.map((op, i) => prepareMultiOp(op, i, this.root, this.maxPacket));
    if (ops.length === 0) return [];
    return this.call(multiSpec(prepared, this.root), options);
  }

  /** Several reads in one round trip; each slot holds its result or its own error. */ async multiRead(ops: ReadOp[], options: CallOptions = {}): Promise<ReadResult[]> {
    if (!Array.isArray(ops)) throw new InvalidArgumentError('ops', 'ops must be an array');
    const prepared = ops.map((op, i) => {
      if (op?.op !== 'getData' && op?.op !== 'getChildren') {
        throw new InvalidArgumentError('ops', `op #${i}: multiRead only takes getData and getChildren`);
      }
      return { op: op.op, path: op.path, serverPath: this.serverPath(op.path) };
    });
    if (ops.length === 0) return [];
    return this.call(multiReadSpec(prepared), options);
  }

  /** The ephemeral nodes of this session whose paths start with `prefixPath`. */ async getEphemerals(prefixPath = '/', options: CallOptions = {}): Promise<string[]> {
    const serverPrefix = this.serverPath(prefixPath);
    const paths = await this.call(req.getEphemerals(serverPrefix), options);
    const root = this.root.root;
    // The server matches by string prefix: '/app' would also match '/app2/x', which is outside the chroot.
    return paths.filter((p) => root === '' || p === root || p.startsWith(`${root}/`)).map((p) => this.root.toClient(p));
  }

  /** The number of nodes below `path`, at every depth. */ async getAllChildrenNumber(path: string, options: CallOptions = {}): Promise<number> {
    return this.call(req.getAllChildrenNumber(this.serverPath(path), path), options);
  }

  /** The identities the server has authenticated this session as. */ async whoAmI(options: CallOptions = {}): Promise<{ authScheme: string; user: string }[]> {
    return this.call(req.whoAmI(), options);
  }

  /** Sets a persistent watch (or a persistent-recursive one, on the whole subtree) and resolves with its handle. */ async addWatch(path: string, mode: 'persistent' | 'persistent-recursive', options: CallOptions = {}): Promise<PersistentWatch> {
    if (mode !== 'persistent' && mode !== 'persistent-recursive') {
      throw new InvalidArgumentError('mode', `addWatch mode must be 'persistent' or 'persistent-recursive', got ${String(mode)}`);
    }
    return this.watches.addWatch(path, this.serverPath(path), mode, options);
  }

  /** Removes this client's watches of `type` on `path`, on the server (and here); `{ local: true }` removes them here even when the server cannot be reached. */ async removeWatches(path: string, type: RemoveWatchType, options: CallOptions & { local?: boolean } = {}): Promise<void> {
    await this.watches.remove(path, this.serverPath(path), type, options);
  }

  /** Fails with NO_WATCHER unless the server holds a watch of `type` on `path` for this session. */ async checkWatches(path: string, type: CheckWatchType, options: CallOptions = {}): Promise<void> {
    if (type !== 'children' && type !== 'data' && type !== 'any') {
      throw new InvalidArgumentError('type', `checkWatches type must be children, data or any, got ${String(type)}`);
    }
    await this.call(req.checkWatches(this.serverPath(path), path, watcherTypeOf(type)), options);
  }

  /** The ensemble configuration; the watch is on the raw /zookeeper/config, never under the chroot. */
  async getConfig(options: WatchOptions = {}): Promise<GetDataResult & { watch?: Promise<WatchEvent> }> {
    return this.getDataAt(CONFIG_NODE, CONFIG_NODE, options);
  }

  private async reconfig(options: ReconfigOptions): Promise<GetDataResult> {
    return this.call(req.reconfig(options), options);
  }

  /** Adds a credential to the session (and to every later reconnect). Resolves once the server accepts it. */ async addAuth(scheme: string, auth: Data, options: CallOptions = {}): Promise<void> {
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
