/**
 * What startServer accepts, and the defaults ZooKeeper 3.8 uses for each: tick time, session timeout bounds
 * (2 and 20 ticks), jute.maxbuffer (plus the 1 KiB of slack the server allows for a request's header), the super
 * digest, and the injectable clock and logger. `resolveOptions` turns the user's object into the complete,
 * validated settings every other module reads (option-checks.ts holds the checks).
 */
import { checkOptionKeys, InvalidArgumentError } from '@zkts/protocol/codec';

import { integerIn, isPem, MAX_TIMER_MS, milliseconds, optionalBoolean, optionalObject, optionalString, refuse, stringList, withMethods } from './option-checks.js';
import { PERSISTENCE_OPTION_KEYS, resolvePersistenceOptions, type PersistenceOptions, type ResolvedPersistenceOptions } from './persistence/options.js';

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
  /** Every request and session event: for following a test step by step. */
  debug(message: string): void;
  /** The server's life: listening, sessions opened and closed, snapshots. */
  info(message: string): void;
  /** What went wrong without stopping the server: a refused connection, a damaged file read up to its damage. */
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

/** Every four-letter word ZooKeeper 3.8 knows (FourLetterCommands). */
export const FOUR_LETTER_WORDS: readonly string[] = Object.freeze([
  'conf', 'cons', 'crst', 'dirs', 'dump', 'envi', 'gtmk', 'hash', 'isro', 'mntr', 'ruok', 'srst', 'srvr', 'stat', 'stmk', 'wchc', 'wchp', 'wchs',
]);

/** Every key of ServerOptions (the table test proves it equals the type's keys). */
const SERVER_OPTION_KEYS: readonly string[] = [
  ...PERSISTENCE_OPTION_KEYS, 'port', 'host', 'tickTime', 'minSessionTimeout', 'maxSessionTimeout', 'maxBuffer', 'superDigest',
  'extendedTypesEnabled', 'containerCheckIntervalMs', 'sessionlessConnectionTimeout', 'clock', 'logger', 'saslUsers', 'saslSuperUser',
  'enforceAuth', 'fourLetterWords', 'tls',
];
const TLS_OPTION_KEYS: readonly string[] = ['key', 'cert', 'ca', 'clientAuth', 'securePort'];
const CLIENT_AUTH = ['need', 'want', 'none'];

/** FourLetterCommands.isEnabled's list: `*` means every word, and `srvr` is always there. */
function whitelist(words: readonly string[] | undefined): ReadonlySet<string> {
  const out = new Set<string>();
  for (const w of words ?? []) {
    if (w.trim() === '*') for (const k of FOUR_LETTER_WORDS) out.add(k);
    else out.add(w.trim());
  }
  out.add('srvr');
  return out;
}

function checkTls(value: unknown): TlsOptions | undefined {
  const tls = optionalObject('tls', value);
  if (tls === undefined) return undefined;
  checkOptionKeys(tls, TLS_OPTION_KEYS, 'startServer tls');
  if (!isPem(tls.key)) refuse('tls.key', 'a PEM string or Buffer', tls.key);
  if (!isPem(tls.cert)) refuse('tls.cert', 'a PEM string or Buffer', tls.cert);
  if (tls.ca !== undefined && !isPem(tls.ca) && !(Array.isArray(tls.ca) && tls.ca.length > 0 && tls.ca.every(isPem))) {
    refuse('tls.ca', 'a PEM string or Buffer, or a non-empty array of them', tls.ca);
  }
  if (tls.clientAuth !== undefined && !CLIENT_AUTH.includes(tls.clientAuth as string)) refuse('tls.clientAuth', "'need', 'want' or 'none'", tls.clientAuth);
  integerIn('tls.securePort', tls.securePort, 0, 65535, 0);
  return tls as unknown as TlsOptions;
}

function checkSaslUsers(value: unknown): ReadonlyMap<string, string> | undefined {
  const users = optionalObject('saslUsers', value);
  if (users === undefined) return undefined;
  const out = new Map<string, string>();
  for (const [name, password] of Object.entries(users)) {
    if (name === '') refuse('saslUsers', 'a record of non-empty user names', value);
    if (typeof password !== 'string') refuse(`saslUsers.${name}`, 'a password string', password);
    out.set(name, password);
  }
  return out;
}

function checkEnforceAuth(value: unknown): readonly string[] {
  if (value === undefined || value === false) return [];
  if (value === true) return ['sasl'];
  if (!Array.isArray(value)) refuse('enforceAuth', 'true, false or an array of scheme names', value);
  return [...(stringList('enforceAuth', value) ?? [])];
}

/**
 * Fills in defaults and checks every option (a bad one is an InvalidArgumentError naming it, thrown before
 * anything listens or opens a file). Unknown keys follow @zkts/protocol's policy (checkOptionKeys).
 */
export function resolveOptions(options: ServerOptions): ResolvedOptions {
  checkOptionKeys(options, SERVER_OPTION_KEYS, 'startServer');
  const tickTime = milliseconds('tickTime', options.tickTime, 2000);
  const minSessionTimeout = milliseconds('minSessionTimeout', options.minSessionTimeout, Math.min(2 * tickTime, MAX_TIMER_MS));
  const maxSessionTimeout = milliseconds('maxSessionTimeout', options.maxSessionTimeout, Math.min(20 * tickTime, MAX_TIMER_MS));
  if (minSessionTimeout > maxSessionTimeout) {
    throw new InvalidArgumentError('minSessionTimeout', `minSessionTimeout ${minSessionTimeout} exceeds maxSessionTimeout ${maxSessionTimeout}`);
  }
  const port = integerIn('port', options.port, 0, 65535, 0);
  const saslSuperUser = optionalString('saslSuperUser', options.saslSuperUser);
  const superDigest = optionalString('superDigest', options.superDigest);
  if (superDigest !== undefined && !superDigest.includes(':')) refuse('superDigest', "'user:base64(sha1(user:password))'", superDigest);
  const saslUsers = checkSaslUsers(options.saslUsers);
  const tls = checkTls(options.tls);
  const fourLetterWords = stringList('fourLetterWords', options.fourLetterWords, (w) => w.trim() === '*' || FOUR_LETTER_WORDS.includes(w.trim()), `'*' or one of ${FOUR_LETTER_WORDS.join(', ')}`);
  return {
    ...resolvePersistenceOptions(options),
    port,
    host: optionalString('host', options.host) ?? '127.0.0.1',
    tickTime,
    minSessionTimeout,
    maxSessionTimeout,
    maxBuffer: integerIn('maxBuffer', options.maxBuffer, 1, 2 ** 31 - 1, DEFAULT_MAX_BUFFER),
    superDigest,
    extendedTypesEnabled: optionalBoolean('extendedTypesEnabled', options.extendedTypesEnabled) ?? true,
    containerCheckIntervalMs: milliseconds('containerCheckIntervalMs', options.containerCheckIntervalMs, 60_000),
    sessionlessConnectionTimeout: milliseconds('sessionlessConnectionTimeout', options.sessionlessConnectionTimeout, 10_000),
    clock: withMethods<Clock>('clock', options.clock, ['now', 'setTimeout', 'clearTimeout']) ?? systemClock,
    logger: withMethods<Logger>('logger', options.logger, ['debug', 'info', 'warn']) ?? silentLogger,
    saslUsers,
    saslSuperUser,
    enforceAuthSchemes: checkEnforceAuth(options.enforceAuth),
    authSchemes: [...(saslUsers === undefined ? [] : ['sasl']), ...(tls === undefined ? [] : ['x509'])],
    fourLetterWords: whitelist(fourLetterWords),
    tls,
  };
}
