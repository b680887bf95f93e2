/**
 * The state one server shares between its connections: the data tree, the watch registry, the session table,
 * the resolved options, and which connection holds which session. `commit` is the whole of ZooKeeper's write
 * pipeline for a standalone server (one zxid per transaction, applied at once, so its watch notifications are
 * queued before its reply); `expire` ends a session as SessionTrackerImpl's expirer does.
 */
import type { JuteWriter } from '@zkts/protocol/codec';

import type { LiveConnection } from '../four-letter/commands.js';
import { ServerStats } from '../four-letter/stats.js';
import type { ResolvedOptions } from '../options.js';
import { SessionTracker, type Session } from '../session/session-tracker.js';
import type { AuthId } from '../tree/acl.js';
import { DataTree } from '../tree/data-tree.js';
import { applyTxn, type Txn, type TxnResult } from '../tree/txn.js';
import { WatchRegistry } from '../watches/registry.js';
import type { Watcher } from '../watches/watch-manager.js';
import type { PrepContext } from './prep.js';

/** What the request handlers need of a client connection (net/connection.ts implements it). */
export interface ClientConnection extends Watcher {
  /** 0 until the handshake binds a session. */
  sessionId: bigint;
  /** The negotiated timeout, used to touch the session on every request. */
  sessionTimeout: number;
  /** Identities: `ip:<address>` from the start, then what `auth` packets add. */
  readonly authInfo: AuthId[];
  /** The peer's address as ZooKeeper logs it. */
  readonly remoteAddress: string;
  /** Queues a reply frame: ReplyHeader, then `body` when given. */
  reply(xid: number, zxid: bigint, err: number, body?: (w: JuteWriter) => void): void;
  /** Queues a frame whose payload `write` produces (the headerless ConnectResponse). */
  sendFrame(write: (w: JuteWriter) => void): void;
  /** Closes after what is queued has been written; no further request is processed. */
  close(reason: string): void;
}

/** One server's tree, watches, sessions and connections. */
export class ServerCore {
  readonly tree: DataTree;
  readonly watches = new WatchRegistry();
  readonly sessions: SessionTracker;
  private readonly connections = new Map<bigint, ClientConnection>();
  /** The counters the four-letter words report. */
  readonly stats: ServerStats;
  /** Every open connection, bound to a session or not (the four-letter words list them). */
  readonly live = new Set<LiveConnection>();
  /** Sees every transaction before it is applied (the transaction log, with a dataDir). */
  txnLog: ((txn: Txn, ctx: PrepContext) => void) | undefined;

  constructor(readonly options: ResolvedOptions) {
    this.stats = new ServerStats(options.clock.now());
    this.tree = new DataTree(options.extendedTypesEnabled);
    this.tree.watches = this.watches;
    this.sessions = new SessionTracker(options.clock, options.tickTime, (s) => this.expire(s));
  }

  /** Wall time for a txn header (ms, from the server's clock). */
  now(): bigint {
    return BigInt(Math.trunc(this.options.clock.now()));
  }

  /** The context in which the next transaction of `sessionId` is prepared. */
  prepContext(sessionId: bigint, authInfo: readonly AuthId[], xid = 0): PrepContext {
    return {
      sessionId,
      authInfo,
      zxid: this.tree.lastZxid + 1n,
      time: this.now(),
      extendedTypesEnabled: this.options.extendedTypesEnabled,
      authSchemes: this.options.authSchemes,
      xid,
    };
  }

  /** Applies `txn` with the zxid and time `ctx` reserved. */
  commit(txn: Txn, ctx: PrepContext): TxnResult {
    this.txnLog?.(txn, ctx);
    const result = applyTxn(this.tree, txn, ctx.zxid, ctx.time);
    if (txn.type === 'closeSession') this.sessions.remove(txn.sessionId);
    return result;
  }

  /** The connection now holding `sessionId` (a re-attach replaces the previous one). */
  bind(conn: ClientConnection): void {
    this.connections.set(conn.sessionId, conn);
  }

  connectionOf(sessionId: bigint): ClientConnection | undefined {
    return this.connections.get(sessionId);
  }

  /** A connection went away: its watches go, its session stays until it expires or is closed. */
  connectionClosed(conn: ClientConnection): void {
    this.watches.removeWatcher(conn);
    if (this.connections.get(conn.sessionId) === conn) this.connections.delete(conn.sessionId);
  }

  /** Ends a session: one closeSession transaction deletes its ephemerals; its connection is closed. */
  closeSession(sessionId: bigint, xid = 0): { zxid: bigint } {
    this.sessions.setClosing(sessionId);
    const ctx = this.prepContext(sessionId, [], xid);
    this.commit({ type: 'closeSession', sessionId, paths: this.tree.ephemeralsOf(sessionId) }, ctx);
    return { zxid: ctx.zxid };
  }

  /** The expirer: close the session, then drop its connection without a word (the client learns on reconnect). */
  private expire(session: Session): void {
    this.options.logger.info(`session 0x${BigInt.asUintN(64, session.id).toString(16)} expired`);
    try {
      this.closeSession(session.id);
    } catch (err) {
      // A timer callback must never take the process down.
      this.options.logger.warn(`closing expired session failed: ${(err as Error).message}`);
    }
    const conn = this.connections.get(session.id);
    if (conn !== undefined) {
      this.connections.delete(session.id);
      conn.close('session expired');
    }
  }
}
