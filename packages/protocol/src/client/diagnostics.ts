/**
 * Observability without printing: the client's node:diagnostics_channel channels with the types of their
 * messages, and `NODE_DEBUG=zkts` text. Every publisher tests `hasSubscribers` before it builds a message, so a
 * process that does not listen pays one boolean test at each publishing point and allocates nothing.
 *
 * `zkts:request` is a tracing channel (Node derives `tracing:zkts:request:start|end|asyncStart|asyncEnd|error`):
 * request-trace.ts publishes it. The others are plain channels; docs/guides/observability.md lists them all.
 */
import { channel, tracingChannel } from 'node:diagnostics_channel';
import { debuglog } from 'node:util';
import type { SessionState } from './types.js';

/** The names of the client's channels, for `diagnostics_channel.tracingChannel(…)` and `channel(…)`. */
export const ChannelNames = {
  /** Tracing channel: one trace per request the API sends (RequestTrace). */
  request: 'zkts:request',
  /** Every client state change (StateMessage). */
  state: 'zkts:state',
  /** Dials, connections and their ends (ConnectionMessage). */
  connection: 'zkts:connection',
  /** Sessions established, expired, renewed, closed (SessionMessage). */
  session: 'zkts:session',
  /** The outcome of each credential and SASL exchange, never the credential (AuthMessage). */
  auth: 'zkts:auth',
  /** Watch notifications from the server, as their listeners are called (WatchEventMessage). */
  event: 'zkts:event',
} as const;
/** The name of one of the client's channels. */
export type ChannelName = (typeof ChannelNames)[keyof typeof ChannelNames];

/** An error as messages carry it: its stable code and its text (never the error object, which may hold more). */
export interface ErrorSummary {
  code: string;
  message: string;
}

/**
 * The context of one `zkts:request` trace: the same object goes through start, end, error, asyncStart and
 * asyncEnd, so fields fill in as the request goes (`xid`, `server`, `bytesOut` when it is written, `bytesIn` with
 * the reply). Subscribers may attach fields of their own to it.
 */
export interface RequestTrace {
  /** ZooKeeper's name of the operation: 'getData', 'create', 'createContainer', 'createTTL', 'getChildren', 'multi'… */
  op: string;
  /** The path as the server sees it (chroot applied); undefined for operations without one (multi, whoAmI...). */
  path: string | undefined;
  /** The session it was written in (0n before any session). */
  sessionId: bigint;
  /** -1 until written. */
  xid: number;
  /** 'host:port' of the connection it was written on (undefined until then). */
  server: string | undefined;
  /** The request's bytes on the wire, length prefix included (0 until written). */
  bytesOut: number;
  /** The reply's bytes on the wire, length prefix included (0 until the reply). */
  bytesIn: number;
  /** 1 for the first try; 2, 3... when the client's own retry (retry policy, guaranteed delete, protected create) sent it again. */
  attempt: number;
  /** attempt > 1. */
  retried: boolean;
  /** multi and multiRead: each sub-operation's name, in order. */
  ops: readonly string[] | undefined;
  /** The ZkError `code` on failure ('NO_NODE', 'CONNECTION_LOSS', 'TIMEOUT'...). */
  errorCode: string | undefined;
  /** Set on failure, as TracingChannel does. */
  error?: unknown;
  /** Set on success, as TracingChannel does. */
  result?: unknown;
}

/** `zkts:state`: a client state change. */
export interface StateMessage {
  sessionId: bigint;
  from: SessionState;
  to: SessionState;
  cause?: ErrorSummary;
}

/** What happened to a connection. */
export type ConnectionEvent = 'dialing' | 'connected' | 'dial-failed' | 'closed';
/**
 * Why the client dials: its first connect, a connection `lost`, the session `contested` by another connection,
 * a new session after an expiry, the next host after a failed dial (`cycle`), or a deliberate `move`.
 */
export type DialReason = 'first' | 'lost' | 'contested' | 'expired' | 'cycle' | 'move';

/** `zkts:connection`: one connection's life, from its dial to its close. */
export interface ConnectionMessage {
  sessionId: bigint;
  event: ConnectionEvent;
  server: string;
  /** dialing: the wait before this dial, ms. */
  delayMs?: number;
  /** dialing: why. */
  reason?: DialReason;
  /** dial-failed, closed: why. */
  cause?: ErrorSummary;
}

/** What happened to a session. */
export type SessionEvent = 'established' | 'expired' | 'renewed' | 'closed';

/** `zkts:session`: a session's life (re-attaching one after a reconnect is a connection event, not a session one). */
export interface SessionMessage {
  event: SessionEvent;
  sessionId: bigint;
  /** renewed: the session that expired; established: a read-only session this one replaced. */
  previousSessionId?: bigint;
  /** The negotiated session timeout, ms. */
  timeoutMs?: number;
}

/** `zkts:auth`: one authentication's outcome. The credential itself never appears. */
export interface AuthMessage {
  sessionId: bigint;
  /** 'digest' (or any addAuth/auth scheme), 'sasl:DIGEST-MD5', 'sasl:GSSAPI', 'x509'. */
  scheme: string;
  outcome: 'ok' | 'failed';
  server: string;
  cause?: ErrorSummary;
}

/** `zkts:event`: a watch notification, published as its listeners are called. */
export interface WatchEventMessage {
  sessionId: bigint;
  /** 'created', 'deleted', 'dataChanged', 'childrenChanged' (a type the client does not know: its number). */
  type: string;
  /** The server path (chroot included). */
  path: string;
  zxid: bigint;
  /** From the notification frame's arrival to the moment its listeners are called, ms. */
  deliveryDelayMs: number;
}

export const requestChannel = tracingChannel<unknown, RequestTrace>(ChannelNames.request);
export const stateChannel = channel(ChannelNames.state);
export const connectionChannel = channel(ChannelNames.connection);
export const sessionChannel = channel(ChannelNames.session);
export const authChannel = channel(ChannelNames.auth);
export const eventChannel = channel(ChannelNames.event);

export const debug = debuglog('zkts');

/** An error as a message summary (only what is safe to publish: the code and the message). */
export function summary(error: unknown): ErrorSummary {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : error.name, message: error.message };
  }
  return { code: 'UNKNOWN', message: String(error) };
}

/** A 64-bit id as '0x…' (session ids in logs, stats and JSON). */
export function hexId(id: bigint): string {
  return `0x${id.toString(16)}`;
}
