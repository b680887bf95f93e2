/**
 * Argument checks that run before anything is queued or sent: every failure is an InvalidArgumentError, so
 * a bad call never reaches the wire.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { checkOptionKeys, describeValue } from '../errors/option-keys.js';
import { CreateFlags } from '../codec/records/constants.js';
import { utf8Bytes } from '../codec/jute/utf8.js';
import type { CreateMode, Data } from './types.js';

/** Longest TTL the server accepts (EphemeralType.TTL: 40 bits of milliseconds). */
export const MAX_TTL = 2 ** 40 - 1;

export function toBytes(data: Data | null | undefined, maxPacket: number): Uint8Array | null {
  if (data === null || data === undefined) return null;
  let bytes: Uint8Array;
  if (typeof data === 'string') bytes = utf8Bytes(data);
  else if (data instanceof Uint8Array) bytes = data;
  else throw new InvalidArgumentError('data', `data must be a Uint8Array, a string or null, got ${describeValue(data)}`);
  if (bytes.byteLength > maxPacket) {
    throw new InvalidArgumentError('data', `${bytes.byteLength} bytes exceed the max packet of ${maxPacket} bytes`);
  }
  return bytes;
}

/** -1 means "any version"; other negatives are refused. */
export function checkVersion(version: number | undefined): number {
  if (version === undefined) return -1;
  if (!Number.isInteger(version) || version < -1 || version > 0x7fffffff) {
    throw new InvalidArgumentError('version', `version must be -1 or an integer in 0..2^31-1, got ${describeValue(version)}`);
  }
  return version;
}

const FLAGS: Record<CreateMode, number> = {
  persistent: CreateFlags.PERSISTENT,
  ephemeral: CreateFlags.EPHEMERAL,
  'persistent-sequential': CreateFlags.PERSISTENT_SEQUENTIAL,
  'ephemeral-sequential': CreateFlags.EPHEMERAL_SEQUENTIAL,
  container: CreateFlags.CONTAINER,
  'persistent-ttl': CreateFlags.PERSISTENT_WITH_TTL,
  'persistent-sequential-ttl': CreateFlags.PERSISTENT_SEQUENTIAL_WITH_TTL,
};

export interface CheckedMode {
  flags: number;
  sequential: boolean;
  container: boolean;
  /** undefined unless a TTL mode. */
  ttl: number | undefined;
}

/** The checked form of every mode without a TTL, made once: a create allocates none. */
const FIXED_MODES: ReadonlyMap<string, Readonly<CheckedMode>> = new Map(
  Object.entries(FLAGS)
    .filter(([m]) => !m.endsWith('-ttl'))
    .map(([m, flags]) => [m, Object.freeze({ flags, sequential: m.includes('sequential'), container: m === 'container', ttl: undefined })]),
);

export function checkCreateMode(mode: CreateMode | undefined, ttl: number | undefined): Readonly<CheckedMode> {
  const m = mode === undefined ? 'persistent' : mode;
  if (typeof m !== 'string' || !Object.hasOwn(FLAGS, m)) throw new InvalidArgumentError('mode', `unknown create mode ${describeValue(m)}`);
  const fixed = FIXED_MODES.get(m);
  if (fixed !== undefined) {
    if (ttl !== undefined) throw new InvalidArgumentError('ttl', `ttl is only allowed with a TTL mode, not ${m} (got ${describeValue(ttl)})`);
    return fixed;
  }
  if (ttl === undefined || !Number.isInteger(ttl) || ttl <= 0 || ttl > MAX_TTL) {
    throw new InvalidArgumentError('ttl', `mode ${m} needs an integer ttl in 1..${MAX_TTL} ms, got ${describeValue(ttl)}`);
  }
  return { flags: FLAGS[m], sequential: m.includes('sequential'), container: false, ttl };
}

/** Node's timers fire at once past this (a 32-bit signed count of ms), so no timeout may exceed it. */
export const MAX_TIMER_MS = 0x7fffffff;

/** A timeout in ms: a finite number in 0..2^31-1 (0 meaning no limit where the option says so). */
export function checkTimeout(timeout: unknown, what = 'timeout'): void {
  if (timeout === undefined) return;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout < 0 || timeout > MAX_TIMER_MS) {
    throw new InvalidArgumentError(what, `${what} must be a number of ms in 0..${MAX_TIMER_MS}, got ${describeValue(timeout)}`);
  }
}

/** What a refused value was, in words: a credential's secret is never printed, only its kind. */
function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value}`;
}

/**
 * options.auth: an array of `{ scheme, auth }` with a non-empty string scheme and a string or Uint8Array
 * credential. Checked before the session starts: a bad entry could not be written to the wire, and would only
 * show as connection attempts failing until the connect timeout.
 */
export function checkCredentials(auth: unknown, maxPacket: number): void {
  if (auth === undefined) return;
  if (!Array.isArray(auth)) throw new InvalidArgumentError('auth', `auth must be an array of { scheme, auth }, got ${kindOf(auth)}`);
  auth.forEach((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new InvalidArgumentError(`auth[${i}]`, `each credential must be an object { scheme, auth }, got ${kindOf(entry)}`);
    }
    const { scheme, auth: credential } = entry as { scheme?: unknown; auth?: unknown };
    if (typeof scheme !== 'string' || scheme === '') {
      const got = typeof scheme === 'string' ? 'an empty string' : kindOf(scheme);
      throw new InvalidArgumentError(`auth[${i}].scheme`, `the scheme must be a non-empty string (digest, ip, x509…), got ${got}`);
    }
    if (typeof credential !== 'string' && !(credential instanceof Uint8Array)) {
      throw new InvalidArgumentError(`auth[${i}].auth`, `the credential for scheme ${JSON.stringify(scheme)} must be a string or a Uint8Array, got ${kindOf(credential)}`);
    }
    const size = typeof credential === 'string' ? utf8Bytes(credential).byteLength : credential.byteLength;
    if (size > maxPacket) {
      throw new InvalidArgumentError(`auth[${i}].auth`, `the credential for scheme ${JSON.stringify(scheme)} has ${size} bytes, above the max packet of ${maxPacket}`);
    }
  });
}

/** An integer option in min..max (inclusive). */
export function checkInteger(value: unknown, what: string, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(what, `${what} must be an integer in ${min}..${max}, got ${describeValue(value)}`);
  }
}

export function checkBoolean(value: unknown, what: string): void {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new InvalidArgumentError(what, `${what} must be true or false, got ${describeValue(value)}`);
  }
}

export function checkFunction(value: unknown, what: string): void {
  if (value !== undefined && typeof value !== 'function') {
    throw new InvalidArgumentError(what, `${what} must be a function, got ${describeValue(value)}`);
  }
}

/** One of a closed set of strings. */
export function checkOneOf(value: unknown, what: string, allowed: readonly string[]): void {
  if (value !== undefined && (typeof value !== 'string' || !allowed.includes(value))) {
    throw new InvalidArgumentError(what, `${what} must be ${allowed.map((a) => `'${a}'`).join(' or ')}, got ${describeValue(value)}`);
  }
}

/** An object (not null, not an array) whose listed members, when present, are functions. */
export function checkObjectWith(value: unknown, what: string, methods: readonly string[], required: boolean): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(what, `${what} must be an object${methods.length > 0 ? ` with ${methods.join(', ')}` : ''}, got ${describeValue(value)}`);
  }
  for (const m of methods) {
    const member: unknown = (value as Record<string, unknown>)[m];
    if (member === undefined && !required) continue;
    if (typeof member !== 'function') {
      throw new InvalidArgumentError(what, `${what}.${m} must be a function, got ${describeValue(member)}`);
    }
  }
}

/** An AbortSignal (by shape, so a signal from another realm passes). */
export function checkSignal(value: unknown, what = 'signal'): void {
  if (value === undefined) return;
  const s = value as Partial<AbortSignal> | null;
  if (typeof value !== 'object' || s === null || typeof s.aborted !== 'boolean' || typeof s.addEventListener !== 'function' || typeof s.removeEventListener !== 'function') {
    throw new InvalidArgumentError(what, `${what} must be an AbortSignal, got ${describeValue(value)}`);
  }
}

/** The options of a call made without any: one frozen empty record, which checkCallOptions knows. */
export const NO_OPTIONS: Readonly<Record<string, never>> = Object.freeze({});

/** The keys every operation's options take (CallOptions). */
export const CALL_OPTION_KEYS = ['signal', 'timeout', 'retry'] as const;

/** CALL_OPTION_KEYS and an operation's own keys, made once (operations run hot: no list per call). */
export function callOptionKeys(...extraKeys: string[]): readonly string[] {
  return Object.freeze([...CALL_OPTION_KEYS, ...extraKeys]);
}

const RETRY_METHODS = ['delayBefore'] as const;
export const CLOCK_METHODS = ['now', 'setTimeout', 'clearTimeout'] as const;

/**
 * An operation's options object: its keys (checkOptionKeys against `keys`, CallOptions' by default; see
 * callOptionKeys), then signal, timeout and retry. The operation checks its own keys' values itself.
 */
export function checkCallOptions(options: unknown, where: string, keys: readonly string[] = CALL_OPTION_KEYS): void {
  // The client's own default: nothing to check (a call without options pays no key scan).
  if (options === NO_OPTIONS) return;
  checkOptionKeys(options, keys, where);
  if (options === undefined) return;
  const o = options as Record<string, unknown>;
  checkSignal(o['signal']);
  checkTimeout(o['timeout']);
  checkObjectWith(o['retry'], 'retry', RETRY_METHODS, true);
}

/** reconfig's own options: the membership strings and the config version it applies to. */
export function checkReconfigValues(options: { joining?: unknown; leaving?: unknown; newMembers?: unknown; fromConfig?: unknown }): void {
  for (const key of ['joining', 'leaving', 'newMembers'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw new InvalidArgumentError(key, `${key} must be a non-empty string of server specs, got ${describeValue(value)}`);
    }
  }
  const from = options.fromConfig;
  if (from !== undefined && (typeof from !== 'bigint' || from < -1n || from >= 2n ** 63n)) {
    throw new InvalidArgumentError('fromConfig', `fromConfig must be a bigint config version (-1 = any), got ${describeValue(from)}`);
  }
}

// Each operation's option keys, made once (no list per call).
export const RECONFIG_KEYS = callOptionKeys('joining', 'leaving', 'newMembers', 'fromConfig');
export const CREATE_KEYS = callOptionKeys('mode', 'acl', 'ttl', 'protected');
export const DELETE_KEYS = callOptionKeys('version', 'guaranteed');
export const WATCH_KEYS = callOptionKeys('watch');
export const VERSION_KEYS = callOptionKeys('version');
export const REMOVE_WATCHES_KEYS = callOptionKeys('local');

/** create's and mkdirp's options: keys, CallOptions, `protected` (mode, ttl and acl are checked with the path). */
export function checkCreateOptions(options: { protected?: unknown }, where: string): void {
  checkCallOptions(options, where, CREATE_KEYS);
  checkBoolean(options.protected, 'protected');
}

/** delete's options: keys, CallOptions, `guaranteed` (the version is checked with the path). */
export function checkDeleteOptions(options: object): void {
  checkCallOptions(options, 'zk.delete', DELETE_KEYS);
  checkBoolean((options as { guaranteed?: unknown }).guaranteed, 'guaranteed');
}
