/**
 * The checks the testkit's inputs go through before anything starts (a JVM, a container, a socket): one small
 * function per kind of value, and the whole ServerOptions / EnsembleOptions object. Each refusal is an
 * InvalidOptionError naming the option and showing the value (describeValue), thrown synchronously so an
 * async start rejects within the same event-loop turn.
 */
import { InvalidOptionError } from './errors.js';
import { checkOptionKeys, describeValue } from './option-keys.js';

/** Node's timers overflow past 2^31-1 ms; no timeout or tick may exceed it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export function refuse(where: string, option: string, expected: string, value: unknown): never {
  throw new InvalidOptionError(option, `${where}: ${option} must be ${expected}, got ${describeValue(value)}`);
}

/** An integer in [min, max] (undefined passes when `optional`). */
export function checkInteger(where: string, option: string, value: unknown, min: number, max: number, optional = true): void {
  if (value === undefined && optional) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) refuse(where, option, `an integer from ${min} to ${max}`, value);
}

/** A finite number (undefined passes when `optional`). */
export function checkNumber(where: string, option: string, value: unknown, min = -Infinity, optional = true): void {
  if (value === undefined && optional) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) refuse(where, option, min === -Infinity ? 'a finite number' : `a finite number ≥ ${min}`, value);
}

export function checkString(where: string, option: string, value: unknown, { optional = true, empty = false } = {}): void {
  if (value === undefined && optional) return;
  if (typeof value !== 'string' || (!empty && value === '')) refuse(where, option, empty ? 'a string' : 'a non-empty string', value);
}

export function checkBoolean(where: string, option: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') refuse(where, option, 'true or false', value);
}

export function checkOneOf(where: string, option: string, value: unknown, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value as string)) refuse(where, option, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
}

/** A plain object, or undefined when `optional`; returns it for member checks. */
export function checkObject(where: string, option: string, value: unknown, optional = true): Record<string, unknown> | undefined {
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse(where, option, 'an object', value);
  return value as Record<string, unknown>;
}

/** A record whose values all pass `valueOk` (described as `expected`). */
export function checkRecord(where: string, option: string, value: unknown, valueOk: (v: unknown) => boolean, expected: string): void {
  const record = checkObject(where, option, value);
  if (record === undefined) return;
  for (const [key, v] of Object.entries(record)) {
    if (key === '') refuse(where, option, 'a record without an empty key', value);
    if (!valueOk(v)) refuse(where, `${option}.${key}`, expected, v);
  }
}

/** An array of non-empty strings. */
export function checkStringList(where: string, option: string, value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) refuse(where, option, 'an array of strings', value);
  (value as unknown[]).forEach((item, i) => {
    if (typeof item !== 'string' || item === '') refuse(where, `${option}[${i}]`, 'a non-empty string', item);
  });
}

/** An object whose `methods` are all functions (a clock). */
export function checkMethods(where: string, option: string, value: unknown, methods: readonly string[]): void {
  const object = checkObject(where, option, value);
  if (object === undefined) return;
  for (const m of methods) if (typeof object[m] !== 'function') refuse(where, `${option}.${m}`, 'a function', object[m]);
}

/** Where to reach a server: `{ host, port }` (other members, as on a server handle, are left alone). */
export function checkTarget(where: string, option: string, value: unknown): void {
  const target = checkObject(where, option, value, false) ?? {};
  checkString(where, `${option}.host`, target.host, { optional: false });
  checkInteger(where, `${option}.port`, target.port, 1, 65535, false);
}

/** A four-letter word as ZooKeeper reads one: four lower-case letters (the server ignores anything else). */
export function checkFourLetterWord(where: string, value: unknown, option = 'cmd'): void {
  if (typeof value !== 'string' || !/^[a-z]{4}$/.test(value)) refuse(where, option, 'a four-letter word (four lower-case letters)', value);
}

/** A wait in ms: an integer from 1 to the timers' limit (undefined passes when `optional`). */
export function checkTimeout(where: string, option: string, value: unknown, optional = true): void {
  checkInteger(where, option, value, 1, MAX_TIMER_MS, optional);
}

/** A TCP port a server listens on (undefined passes when `optional`). */
export function checkPort(where: string, option: string, value: unknown, optional = true): void {
  checkInteger(where, option, value, 1, 65535, optional);
}

/** How many log lines to read back: at least one, at most a million (more is a mistake, not a wish). */
export function checkLineCount(where: string, value: unknown): void {
  checkInteger(where, 'lines', value, 1, 1_000_000);
}

/** An ensemble's peer list: `{ id, host, quorumPort, electionPort, clientPort? }` for each member. */
export function checkPeers(where: string, option: string, value: unknown): void {
  if (!Array.isArray(value) || value.length === 0) refuse(where, option, 'a non-empty array of peers', value);
  (value as unknown[]).forEach((item, i) => {
    const peer = checkObject(where, `${option}[${i}]`, item, false) ?? {};
    checkInteger(where, `${option}[${i}].id`, peer.id, 1, MAX_TIMER_MS, false);
    checkString(where, `${option}[${i}].host`, peer.host, { optional: false });
    for (const k of ['quorumPort', 'electionPort']) checkPort(where, `${option}[${i}].${k}`, peer[k], false);
    checkPort(where, `${option}[${i}].clientPort`, peer.clientPort);
  });
}

const BACKENDS = ['local', 'container', 'embedded', 'auto'];
const LOG_LEVELS = ['ERROR', 'WARN', 'INFO', 'DEBUG'];
const SCALAR = (v: unknown): boolean => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** Every key of ServerOptions (the table test proves it equals the type's keys). */
export const SERVER_OPTION_KEYS: readonly string[] = [
  'backend', 'clock', 'dataDir', 'image', 'tickTime', 'minSessionTimeout', 'maxSessionTimeout', 'fourLetterWhitelist',
  'extendedTypesEnabled', 'reconfigEnabled', 'containerCheckIntervalMs', 'readOnlyMode', 'superPassword', 'tls', 'sasl',
  'enforceAuth', 'x509Auth', 'clientPort', 'startTimeout', 'heap', 'logLevel', 'config', 'systemProperties', 'jvmArgs',
];
const SASL_KEYS: readonly string[] = ['digestUsers', 'kerberos', 'superUser'];
const KERBEROS_KEYS: readonly string[] = ['principal', 'keytab', 'krb5Conf'];

/** Checks the backend's name alone (it may come from the environment, named as its variable then). */
export function checkBackend(where: string, value: unknown, option = 'backend'): void {
  checkOneOf(where, option, value, BACKENDS);
}

function checkSasl(where: string, value: unknown): void {
  const sasl = checkObject(where, 'sasl', value);
  if (sasl === undefined) return;
  checkOptionKeys(sasl, SASL_KEYS, `${where} sasl`);
  checkRecord(where, 'sasl.digestUsers', sasl.digestUsers, (v) => typeof v === 'string', 'a password string');
  const kerberos = checkObject(where, 'sasl.kerberos', sasl.kerberos);
  if (kerberos !== undefined) {
    checkOptionKeys(kerberos, KERBEROS_KEYS, `${where} sasl.kerberos`);
    for (const k of KERBEROS_KEYS) checkString(where, `sasl.kerberos.${k}`, kerberos[k], { optional: false });
  }
  checkString(where, 'sasl.superUser', sasl.superUser);
}

/**
 * Checks a ServerOptions object (and `size` when `extraKeys` has it: EnsembleOptions) before anything starts.
 * Unknown keys follow the policy of option-keys.ts.
 */
export function checkServerOptions(where: string, options: unknown, extraKeys: readonly string[] = []): void {
  checkOptionKeys(options, [...SERVER_OPTION_KEYS, ...extraKeys], where);
  if (options === undefined) return;
  const o = options as Record<string, unknown>;
  checkBackend(where, o.backend);
  checkMethods(where, 'clock', o.clock, ['now', 'setTimeout', 'clearTimeout']);
  checkString(where, 'dataDir', o.dataDir);
  checkString(where, 'image', o.image);
  for (const k of ['tickTime', 'minSessionTimeout', 'maxSessionTimeout', 'containerCheckIntervalMs', 'startTimeout']) checkInteger(where, k, o[k], 1, MAX_TIMER_MS);
  if (typeof o.minSessionTimeout === 'number' && typeof o.maxSessionTimeout === 'number' && o.minSessionTimeout > o.maxSessionTimeout) {
    refuse(where, 'minSessionTimeout', `at most maxSessionTimeout (${o.maxSessionTimeout})`, o.minSessionTimeout);
  }
  checkString(where, 'fourLetterWhitelist', o.fourLetterWhitelist);
  if (typeof o.fourLetterWhitelist === 'string' && !/^\s*(\*|[a-z]{4})(\s*,\s*(\*|[a-z]{4}))*\s*$/.test(o.fourLetterWhitelist)) {
    refuse(where, 'fourLetterWhitelist', "'*' or comma-separated four-letter words", o.fourLetterWhitelist);
  }
  for (const k of ['extendedTypesEnabled', 'reconfigEnabled', 'readOnlyMode', 'tls', 'x509Auth']) checkBoolean(where, k, o[k]);
  checkString(where, 'superPassword', o.superPassword, { empty: true });
  checkSasl(where, o.sasl);
  checkStringList(where, 'enforceAuth', o.enforceAuth);
  if (o.clientPort !== undefined && o.clientPort !== false) refuse(where, 'clientPort', 'false (or left out)', o.clientPort);
  if (o.heap !== undefined && (typeof o.heap !== 'string' || !/^\d+[kKmMgG]?$/.test(o.heap))) refuse(where, 'heap', "a JVM size like '256m'", o.heap);
  checkOneOf(where, 'logLevel', o.logLevel, LOG_LEVELS);
  checkRecord(where, 'config', o.config, SCALAR, 'a string, a finite number or a boolean');
  checkRecord(where, 'systemProperties', o.systemProperties, SCALAR, 'a string, a finite number or a boolean');
  checkStringList(where, 'jvmArgs', o.jvmArgs);
  // Combinations refused later by the backends, refused here too so that they fail before any probe or start.
  if (o.clientPort === false && o.tls !== true) refuse(where, 'clientPort', 'left out unless tls is true (a server needs a port)', o.clientPort);
  if (o.x509Auth === true && o.tls !== true) refuse(where, 'x509Auth', 'left out unless tls is true (identities come from the TLS port)', o.x509Auth);
  if (Array.isArray(o.enforceAuth) && o.enforceAuth.length === 0) refuse(where, 'enforceAuth', 'a list of at least one scheme', o.enforceAuth);
  if (extraKeys.includes('size')) {
    checkInteger(where, 'size', o.size, 1, 255, false);
    if (o.clientPort === false) refuse(where, 'clientPort', 'left out (ensemble members need their plain client port)', o.clientPort);
  }
}
