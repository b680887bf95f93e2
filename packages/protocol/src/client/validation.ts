/**
 * Argument checks that run before anything is queued or sent: every failure is an InvalidArgumentError, so
 * a bad call never reaches the wire.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { CreateFlags } from '../codec/records/constants.js';
import type { CreateMode, Data } from './types.js';

const utf8 = new TextEncoder();

/** Longest TTL the server accepts (EphemeralType.TTL: 40 bits of milliseconds). */
export const MAX_TTL = 2 ** 40 - 1;

export function toBytes(data: Data | null | undefined, maxPacket: number): Uint8Array | null {
  if (data === null || data === undefined) return null;
  let bytes: Uint8Array;
  if (typeof data === 'string') bytes = utf8.encode(data);
  else if (data instanceof Uint8Array) bytes = data;
  else throw new InvalidArgumentError('data', 'data must be a Uint8Array, a string or null');
  if (bytes.byteLength > maxPacket) {
    throw new InvalidArgumentError('data', `${bytes.byteLength} bytes exceed the max packet of ${maxPacket} bytes`);
  }
  return bytes;
}

/** -1 means "any version"; other negatives are refused. */
export function checkVersion(version: number | undefined): number {
  if (version === undefined) return -1;
  if (!Number.isInteger(version) || version < -1 || version > 0x7fffffff) {
    throw new InvalidArgumentError('version', `version must be -1 or an integer in 0..2^31-1, got ${String(version)}`);
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

export function checkCreateMode(mode: CreateMode | undefined, ttl: number | undefined): CheckedMode {
  const m = mode ?? 'persistent';
  if (!Object.hasOwn(FLAGS, m)) throw new InvalidArgumentError('mode', `unknown create mode ${JSON.stringify(m)}`);
  const flags = FLAGS[m];
  const isTtl = m === 'persistent-ttl' || m === 'persistent-sequential-ttl';
  if (isTtl) {
    if (ttl === undefined || !Number.isInteger(ttl) || ttl <= 0 || ttl > MAX_TTL) {
      throw new InvalidArgumentError('ttl', `mode ${m} needs an integer ttl in 1..${MAX_TTL} ms, got ${String(ttl)}`);
    }
  } else if (ttl !== undefined) {
    throw new InvalidArgumentError('ttl', `ttl is only allowed with a TTL mode, not ${m}`);
  }
  return { flags, sequential: m.includes('sequential'), container: m === 'container', ttl: isTtl ? ttl : undefined };
}

export function checkTimeout(timeout: number | undefined, what = 'timeout'): void {
  if (timeout === undefined) return;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout < 0) {
    throw new InvalidArgumentError(what, `${what} must be a non-negative number of ms, got ${String(timeout)}`);
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
    const size = typeof credential === 'string' ? utf8.encode(credential).byteLength : credential.byteLength;
    if (size > maxPacket) {
      throw new InvalidArgumentError(`auth[${i}].auth`, `the credential for scheme ${JSON.stringify(scheme)} has ${size} bytes, above the max packet of ${maxPacket}`);
    }
  });
}
