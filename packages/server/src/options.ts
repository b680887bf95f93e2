/**
 * What startServer accepts, and the defaults ZooKeeper 3.8 uses for each: tick time, session timeout bounds
 * (2 and 20 ticks), jute.maxbuffer (plus the 1 KiB of slack the server allows for a request's header), the super
 * digest, and the injectable clock and logger. `resolveOptions` turns the user's object into the complete,
 * validated settings every other module reads.
 */
import { resolvePersistenceOptions, type PersistenceOptions, type ResolvedPersistenceOptions } from './persistence/options.js';

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
export interface ServerOptions extends PersistenceOptions {
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
  /**
   * SASL DIGEST-MD5 users, name → password (a JAAS `Server` section with DigestLoginModule; realm
   * `zk-sasl-md5`). Set, the server answers sasl requests and registers the `sasl` ACL scheme.
   */
  saslUsers?: Readonly<Record<string, string>>;
  /** `zookeeper.superUser`: the SASL user that is also `super`. */
  saslSuperUser?: string;
  /**
   * `enforce.auth.enabled`: true requires `sasl` (`enforce.auth.schemes=sasl`), a list names the schemes. A
   * connection without such an identity gets -124 for its first other request and is closed.
   */
  enforceAuth?: boolean | readonly string[];
  /** `4lw.commands.whitelist`: the four-letter words answered (`'*'` for all); `srvr` is always on. */
  fourLetterWords?: readonly string[];
  /** A TLS client port (ZooKeeper's secureClientPort) with these PEM credentials; see TlsOptions. */
  tls?: TlsOptions;
}

/** TLS for the secure client port. */
export interface TlsOptions {
  /** PEM private key and certificate (chain) of the server. */
  key: string | Buffer;
  cert: string | Buffer;
  /** PEM CA certificate(s) that sign client certificates. */
  ca?: string | Buffer | (string | Buffer)[];
  /** `ssl.clientAuth`: default `'need'` (a client without a valid certificate fails the TLS handshake). */
  clientAuth?: 'need' | 'want' | 'none';
  /** The secure port; default 0 (a free one). The plain `port` is served too. */
  securePort?: number;
}

/** Every setting, resolved. */
export interface ResolvedOptions extends ResolvedPersistenceOptions {
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
  readonly saslUsers: ReadonlyMap<string, string> | undefined;
  readonly saslSuperUser: string | undefined;
  /** enforce.auth.schemes; empty when not enforced. */
  readonly enforceAuthSchemes: readonly string[];
  /** Optional authentication providers registered (`sasl` with saslUsers, `x509` with tls). */
  readonly authSchemes: readonly string[];
  /** Whitelisted four-letter words. */
  readonly fourLetterWords: ReadonlySet<string>;
  readonly tls: TlsOptions | undefined;
}

/** jute.maxbuffer's default, 0xfffff, plus ZooKeeper's 1024 bytes of request-header slack. */
export const DEFAULT_MAX_BUFFER = 0xfffff + 1024;

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** Every four-letter word ZooKeeper 3.8 knows (FourLetterCommands). */
export const FOUR_LETTER_WORDS: readonly string[] = Object.freeze([
  'conf', 'cons', 'crst', 'dirs', 'dump', 'envi', 'gtmk', 'hash', 'isro', 'mntr', 'ruok', 'srst', 'srvr', 'stat', 'stmk', 'wchc', 'wchp', 'wchs',
]);

/** FourLetterCommands.isEnabled's list: `*` means every word, and `srvr` is always there. */
function whitelist(words: readonly string[] | undefined): ReadonlySet<string> {
  const out = new Set<string>();
  for (const w of words ?? []) {
    if (w.trim() === '*') for (const k of FOUR_LETTER_WORDS) out.add(k);
    else if (w.trim() !== '') out.add(w.trim());
  }
  out.add('srvr');
  return out;
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
    ...resolvePersistenceOptions(options),
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
    saslUsers: options.saslUsers === undefined ? undefined : new Map(Object.entries(options.saslUsers)),
    saslSuperUser: options.saslSuperUser,
    enforceAuthSchemes: options.enforceAuth === true ? ['sasl'] : options.enforceAuth === false || options.enforceAuth === undefined ? [] : [...options.enforceAuth],
    authSchemes: [...(options.saslUsers === undefined ? [] : ['sasl']), ...(options.tls === undefined ? [] : ['x509'])],
    fourLetterWords: whitelist(options.fourLetterWords),
    tls: options.tls,
  };
}
