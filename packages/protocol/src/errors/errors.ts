/**
 * One error taxonomy for zkts. Every error is a `ZkError` with a stable string `code`; callers branch on
 * `code` (or on the class), never on the message. `instanceof` works across duplicate installed copies of the
 * package because each class checks a `Symbol.for` brand instead of the prototype chain.
 *
 *   ZkError
 *   ├── ServerError            the server answered with a KeeperException code (`code` = its name, `keeperCode` = number)
 *   ├── ProtocolError          bytes that do not follow the protocol (truncated, hostile, out of order)
 *   │   ├── NotZooKeeperError  the peer speaks another protocol (an HTTP server: the AdminServer port?)
 *   │   └── DataFileError      a damaged transaction log or snapshot file (`code` names the damage)
 *   ├── ConnectionLossError    the connection dropped; for a request in flight the outcome is UNKNOWN
 *   ├── SessionExpiredError    the session is gone (server said so, or client-side expiry)
 *   ├── ClientClosedError      the client was closed by its owner
 *   ├── AuthFailedError        the server refused our credentials (an auth packet or SASL), or our SASL mechanism
 *   │                          could not authenticate it or us; the client is unusable
 *   ├── SessionClosedRequireSaslAuthError   the server demands authentication (enforce.auth) the session lacks
 *   ├── UnreachableError       connect() gave up at once: every host refused, did not resolve or is not ZooKeeper
 *   ├── TimeoutError           a deadline the caller set (or a connect timeout) passed
 *   ├── AbortError             the caller's AbortSignal fired
 *   └── InvalidArgumentError   bad input caught before anything was sent (path, ACL, size, version…)
 */
import { describeValue } from './describe-value.js';
import { KeeperCode, serverCodeMessage, serverCodeName, type KeeperCodeName } from './codes.js';

const BRAND = Symbol.for('zkts.error');

/**
 * `instanceof` by brand instead of prototype identity, so an error made by one installed copy of a zkts
 * package is still recognised by another copy. `value` must carry `brand` (set by the base class's
 * constructor); a subclass check then walks its prototype chain comparing class names.
 *
 * @internal Exported for the other zkts packages' error families, not part of the documented API.
 */
export function isBrandedInstance(brand: symbol, base: abstract new (...args: never[]) => unknown, target: { name: string }, value: unknown): boolean {
  if (typeof value !== 'object' || value === null || !(brand in value)) return false;
  if (target === base) return true;
  let proto: unknown = Object.getPrototypeOf(value);
  while (proto !== null && typeof proto === 'object') {
    if ((proto as { constructor?: { name?: string } }).constructor?.name === target.name) return true;
    proto = Object.getPrototypeOf(proto);
  }
  return false;
}

/** The stable `code` of every ZkError: a server's KeeperException name, or one of the client's own conditions. */
export type ZkErrorCode =
  | KeeperCodeName
  | 'SERVER_ERROR'
  | 'PROTOCOL_ERROR'
  | 'NOT_ZOOKEEPER'
  | DataFileErrorCode
  | 'CONNECTION_LOSS'
  | 'SESSION_EXPIRED'
  | 'CLIENT_CLOSED'
  | 'AUTH_FAILED'
  | 'UNREACHABLE'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'INVALID_ARGUMENT';

/** The base of every error zkts throws. Branch on `code` (stable) or on the class, not on the message. */
export class ZkError extends Error {
  readonly code: ZkErrorCode;

  constructor(code: ZkErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, BRAND, { value: this.constructor.name });
  }

  /** The class name (`'ServerError'`…), also for errors made by another installed copy of the package. */
  override get name(): string {
    return this.constructor.name;
  }

  /** `instanceof` by brand, so it also recognises errors from another installed copy of @zkts/protocol. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBrandedInstance(BRAND, ZkError, this, value);
  }
}

/** The server answered with a non-zero KeeperException code. */
export class ServerError extends ZkError {
  /** The raw KeeperException number, e.g. -101. */
  readonly keeperCode: number;
  /** The path the request was about, when there was one (client-side, chroot stripped). */
  readonly path: string | undefined;

  constructor(keeperCode: number, path?: string, options?: ErrorOptions) {
    const name = serverCodeName(keeperCode);
    super(name, `${serverCodeMessage(keeperCode)}${path === undefined ? '' : ` (${path})`}`, options);
    this.keeperCode = keeperCode;
    this.path = path;
  }
}

/** Bytes that break the protocol: truncated, out of bounds, hostile, or replies out of order. */
export class ProtocolError extends ZkError {
  /** Byte offset inside the frame where decoding failed, when known. */
  readonly offset: number | undefined;

  constructor(message: string, offset?: number, options?: ErrorOptions & { code?: DataFileErrorCode | 'NOT_ZOOKEEPER' }) {
    super(options?.code ?? 'PROTOCOL_ERROR', offset === undefined ? message : `${message} at offset ${offset}`, options);
    this.offset = offset;
  }
}

/**
 * The peer's first bytes are another protocol's, so it is not a ZooKeeper client port at all: an HTTP answer
 * ("HTTP/1.1 400 …") comes from the AdminServer (port 8080 by default) or another web service. Read as a frame
 * length those bytes are a nonsense size ("HTTP" = 1213486160); said in words instead, and final for a
 * connect, since every later attempt meets the same server.
 */
export class NotZooKeeperError extends ProtocolError {
  declare readonly code: 'NOT_ZOOKEEPER';
  /** What the peer speaks instead: 'HTTP'. */
  readonly protocol: string;

  constructor(protocol: string, message: string, options?: ErrorOptions) {
    super(message, undefined, { ...options, code: 'NOT_ZOOKEEPER' });
    this.protocol = protocol;
  }
}

/**
 * What is wrong with a ZooKeeper data file (transaction log or snapshot), as a stable code:
 *
 *   FILE_BAD_MAGIC        not a txn log / snapshot (or the wrong one of the two), or an unknown format version
 *   FILE_TRUNCATED        the file ends inside a header, an entry or the tree
 *   FILE_BAD_CHECKSUM     an entry's (or the snapshot's) Adler32 does not match its bytes
 *   FILE_BAD_END_MARKER   a log entry is not followed by its end-of-record byte 'B'
 *   FILE_BAD_RECORD       a record inside does not decode (bad length, unknown txn type, broken tree)
 *   FILE_UNSUPPORTED      a valid file this codec does not read (a snappy-compressed snapshot)
 */
export type DataFileErrorCode =
  | 'FILE_BAD_MAGIC'
  | 'FILE_TRUNCATED'
  | 'FILE_BAD_CHECKSUM'
  | 'FILE_BAD_END_MARKER'
  | 'FILE_BAD_RECORD'
  | 'FILE_UNSUPPORTED';

/** A damaged or unreadable txn log / snapshot; `offset` is the byte offset in the file where it was found. */
export class DataFileError extends ProtocolError {
  declare readonly code: DataFileErrorCode;
  /** The file name, when the caller gave one. */
  readonly file: string | undefined;

  constructor(code: DataFileErrorCode, message: string, offset: number, options?: ErrorOptions & { file?: string }) {
    super(options?.file === undefined ? message : `${options.file}: ${message}`, offset, { ...options, code });
    this.file = options?.file;
  }
}

/**
 * The connection dropped. For a request that was in flight, `outcomeUnknown` is true: the server may or may
 * not have applied it. zkts never retries such a write by itself.
 */
export class ConnectionLossError extends ZkError {
  readonly outcomeUnknown: boolean;

  constructor(message: string, outcomeUnknown: boolean, options?: ErrorOptions) {
    super('CONNECTION_LOSS', message, options);
    this.outcomeUnknown = outcomeUnknown;
  }
}

/** The session is gone: the server said so, or the client went 4/3 of the session timeout without a server. Final: make a new client. */
export class SessionExpiredError extends ZkError {
  constructor(message = 'session expired', options?: ErrorOptions) {
    super('SESSION_EXPIRED', message, options);
  }
}

/** The call was made on, or was pending when, the client was closed. */
export class ClientClosedError extends ZkError {
  constructor(message = 'client closed', options?: ErrorOptions) {
    super('CLIENT_CLOSED', message, options);
  }
}

/** The server refused the credentials; the client cannot be used any more. */
export class AuthFailedError extends ZkError {
  constructor(message = 'authentication failed', options?: ErrorOptions) {
    super('AUTH_FAILED', message, options);
  }
}

/**
 * The server closed the session because it demands authentication this connection does not have
 * (`enforce.auth.enabled` with `enforce.auth.schemes`, or the older `sessionRequireClientSASLAuth`): the reply
 * to the first request (even a ping) carries -124 and the server drops the connection. Retrying cannot help,
 * so the session ends in `auth-failed` with this error. Configure `sasl` (or the scheme the server names).
 */
export class SessionClosedRequireSaslAuthError extends ZkError {
  constructor(message = 'the server closed the session: it requires SASL authentication (enforce.auth) and this session has none', options?: ErrorOptions) {
    super('SESSION_CLOSED_REQUIRE_SASL_AUTH', message, options);
  }
}


/** A deadline the caller set (`timeout`, `requestTimeout`) passed. A write may still have been applied. */
export class TimeoutError extends ZkError {
  constructor(message = 'timed out', options?: ErrorOptions) {
    super('TIMEOUT', message, options);
  }
}

/** One failed attempt to reach a server: which host, and why (its `cause` is the socket's error, if any). */
export interface ConnectAttempt {
  /** host:port as given in the connect string. */
  readonly host: string;
  readonly error: ZkError;
  /** Clock time of the failure. */
  readonly at: number;
}

/**
 * connect()/connected() gave up before a session was established. `attempts` holds the last failure of each
 * host tried (refused, not found, TLS alert, handshake timeout…), and `cause` the most recent one.
 */
export class ConnectTimeoutError extends TimeoutError {
  readonly attempts: readonly ConnectAttempt[];

  constructor(timeout: number, attempts: readonly ConnectAttempt[]) {
    const last = attempts[attempts.length - 1];
    const detail = attempts.length === 0 ? 'no server answered' : attempts.map((a) => `${a.host}: ${describeFailure(a.error)}`).join('; ');
    super(`not connected within ${timeout} ms (${detail})`, last === undefined ? undefined : { cause: last.error });
    this.attempts = attempts;
  }
}

/**
 * The first connect() of a client gave up at once, without waiting out its timeout: every host of the connect
 * string failed in a way retrying soon will not change (refused, a name that does not resolve, not a ZooKeeper
 * port). `attempts` holds each host's failure, in connect-string order. Only the first connect fails so, and only
 * unless `waitForServer: true`; once a session existed, the client keeps retrying as before.
 */
export class UnreachableError extends ZkError {
  readonly attempts: readonly ConnectAttempt[];

  constructor(attempts: readonly ConnectAttempt[]) {
    const last = attempts[attempts.length - 1];
    const detail = attempts.map((a) => `${a.host}: ${describeFailure(a.error)}`).join('; ');
    super('UNREACHABLE', `no ZooKeeper server reachable (${detail}); waitForServer: true waits for one`, last === undefined ? undefined : { cause: last.error });
    this.attempts = attempts;
  }
}

/** The short reason of a connect failure: the socket's error code when there is one (ECONNREFUSED…). */
function describeFailure(error: ZkError): string {
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : error.message;
}

/** The caller's AbortSignal fired. */
export class AbortError extends ZkError {
  constructor(message = 'aborted', options?: ErrorOptions) {
    super('ABORTED', message, options);
  }
}

/** Bad input caught before anything was sent. `argument` names what was wrong (e.g. 'path', 'acl'). */
export class InvalidArgumentError extends ZkError {
  readonly argument: string;

  constructor(argument: string, message: string, options?: ErrorOptions) {
    super('INVALID_ARGUMENT', `invalid ${argument}: ${message}`, options);
    this.argument = argument;
  }
}

/**
 * Turns a signal's reason into an AbortError (keeping a caller-supplied ZkError as it is).
 *
 * @internal Exported for the other zkts packages, not part of the documented API.
 */
export function abortErrorFrom(signal: AbortSignal): ZkError {
  if (typeof signal !== 'object' || signal === null || typeof (signal as Partial<AbortSignal>).aborted !== 'boolean') {
    throw new InvalidArgumentError('signal', `abortErrorFrom needs an AbortSignal, got ${describeValue(signal)}`);
  }
  const reason: unknown = signal.reason;
  if (reason instanceof ZkError) return reason;
  return new AbortError('operation aborted', { cause: reason });
}

/**
 * The error for a KeeperException code, wherever it arrives (a reply, a multi result, an auth reply): a code
 * that names a condition with its own class becomes that class, so `instanceof SessionExpiredError` holds for a
 * server-sent -112 exactly as for our own expiry. Every other code is a ServerError. The `code` string is the
 * same either way (the classes' codes are the KeeperException names); `keeperCode` is kept on the mapped
 * classes through `serverKeeperCode`.
 */
export function errorFromKeeperCode(keeperCode: number, path?: string, options?: ErrorOptions): ZkError {
  const where = path === undefined ? '' : ` (${path})`;
  let error: ZkError;
  switch (keeperCode) {
    case KeeperCode.SESSION_EXPIRED:
      error = new SessionExpiredError(`the server reports the session expired${where}`, options);
      break;
    case KeeperCode.AUTH_FAILED:
      error = new AuthFailedError(`the server rejected the credentials${where}`, options);
      break;
    case KeeperCode.SESSION_CLOSED_REQUIRE_SASL_AUTH:
      error = new SessionClosedRequireSaslAuthError(undefined, options);
      break;
    case KeeperCode.CONNECTION_LOSS:
      error = new ConnectionLossError(`the server reports connection loss${where}`, true, options);
      break;
    default:
      return new ServerError(keeperCode, path, options);
  }
  Object.defineProperty(error, 'keeperCode', { value: keeperCode, enumerable: true });
  return error;
}

/** The KeeperException number behind an error, when the server sent one (ServerError or a mapped class). */
export function serverKeeperCode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !(error instanceof ZkError)) return undefined;
  const code = (error as { keeperCode?: unknown }).keeperCode;
  return typeof code === 'number' ? code : undefined;
}
