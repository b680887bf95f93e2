/**
 * What startServer accepts, and the defaults ZooKeeper 3.8 uses for each: tick time, session timeout bounds
 * (2 and 20 ticks), jute.maxbuffer (plus the 1 KiB of slack the server allows for a request's header), the super
 * digest, and the injectable clock and logger. `resolveOptions` turns the user's object into the complete,
 * validated settings every other module reads.
 */

/** An opaque timer handle, only ever passed back to the clock that made it. */
export type ClockTimer = object;

/**
 * Time as the server sees it: session expiry, container reaping and every Stat's ctime/mtime. The shape of
 * @zkts/protocol's Clock and @zkts/testkit's ManualClock, so a test can drive expiry exactly.
 */
export interface Clock {
  /** Milliseconds since the epoch (ctime/mtime are taken from it). */
  now(): number;
  /** Calls `callback` once, `ms` from now on this clock. */
  setTimeout(callback: () => void, ms: number, options?: { unref?: boolean }): ClockTimer;
  /** Cancels a timer made by this clock's setTimeout. */
  clearTimeout(timer: ClockTimer): void;
}

/** Date.now and Node's timers (unref'd: a server's timers alone never keep the process alive). */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout(callback: () => void, ms: number): ClockTimer {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return timer;
  },
  clearTimeout(timer: ClockTimer): void {
    clearTimeout(timer as ReturnType<typeof setTimeout>);
  },
});

/** Where the server reports what it does; the default says nothing. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
}

/** A logger that drops everything. */
export const silentLogger: Logger = Object.freeze({ debug() {}, info() {}, warn() {} });

/** Options of startServer; every one is optional. */
export interface ServerOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** ms; default 2000 (ZooKeeper's tickTime): session expiry runs in buckets of one tick. */
  tickTime?: number;
  /** ms; default 2 × tickTime. */
  minSessionTimeout?: number;
  /** ms; default 20 × tickTime. */
  maxSessionTimeout?: number;
  /**
   * Largest accepted frame in bytes: a longer length prefix closes the connection. Default 0xfffff + 1024, as
   * ZooKeeper's jute.maxbuffer plus the slack it gives a request's header.
   */
  maxBuffer?: number;
  /**
   * `DigestAuthenticationProvider.superDigest`: `super:<base64 sha1>`; a client that authenticates as that
   * user passes every ACL check.
   */
  superDigest?: string;
  /**
   * TTL nodes (`zookeeper.extendedTypesEnabled`). Default true, unlike ZooKeeper (false): an embedded server is
   * for development, where TTL nodes should simply work.
   */
  extendedTypesEnabled?: boolean;
  /** ms between container and TTL reaping passes (`znode.container.checkIntervalMs`); default 60000. */
  containerCheckIntervalMs?: number;
  /**
   * ms a connection may stay without a session (`zookeeper.nio.sessionlessCnxnTimeout`); default 10000. Each
   * chunk read before the handshake restarts it, as in ZooKeeper; then the connection is closed.
   */
  sessionlessConnectionTimeout?: number;
  /** Default the system clock. */
  clock?: Clock;
  /** Default silent. */
  logger?: Logger;
}

/** Every setting, resolved. */
export interface ResolvedOptions {
  readonly port: number;
  readonly host: string;
  readonly tickTime: number;
  readonly minSessionTimeout: number;
  readonly maxSessionTimeout: number;
  readonly maxBuffer: number;
  readonly superDigest: string | undefined;
  readonly extendedTypesEnabled: boolean;
  readonly containerCheckIntervalMs: number;
  readonly sessionlessConnectionTimeout: number;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** jute.maxbuffer's default, 0xfffff, plus ZooKeeper's 1024 bytes of request-header slack. */
export const DEFAULT_MAX_BUFFER = 0xfffff + 1024;

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** Fills in defaults and checks ranges (a bad option throws RangeError before anything listens). */
export function resolveOptions(options: ServerOptions): ResolvedOptions {
  const tickTime = positive('tickTime', options.tickTime ?? 2000);
  const minSessionTimeout = positive('minSessionTimeout', options.minSessionTimeout ?? 2 * tickTime);
  const maxSessionTimeout = positive('maxSessionTimeout', options.maxSessionTimeout ?? 20 * tickTime);
  if (minSessionTimeout > maxSessionTimeout) {
    throw new RangeError(`minSessionTimeout ${minSessionTimeout} exceeds maxSessionTimeout ${maxSessionTimeout}`);
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`port must be 0..65535, got ${port}`);
  return {
    port,
    host: options.host ?? '127.0.0.1',
    tickTime,
    minSessionTimeout,
    maxSessionTimeout,
    maxBuffer: positive('maxBuffer', options.maxBuffer ?? DEFAULT_MAX_BUFFER),
    superDigest: options.superDigest,
    extendedTypesEnabled: options.extendedTypesEnabled ?? true,
    containerCheckIntervalMs: positive('containerCheckIntervalMs', options.containerCheckIntervalMs ?? 60_000),
    sessionlessConnectionTimeout: positive('sessionlessConnectionTimeout', options.sessionlessConnectionTimeout ?? 10_000),
    clock: options.clock ?? systemClock,
    logger: options.logger ?? silentLogger,
  };
}
