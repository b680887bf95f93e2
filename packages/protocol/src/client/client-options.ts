/**
 * The checks of createClient's options (ClientOptions), run in the constructor before anything is built, so a
 * bad option is an InvalidArgumentError at once instead of a surprise at connect time (a NaN timeout firing
 * at once, a string maxPacket refusing every reply). `auth` entries are checked where credentials are read.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { checkOptionKeys, describeValue } from '../errors/option-keys.js';
import { MAX_TIMER_MS, checkBoolean, checkFunction, checkInteger, checkObjectWith, checkOneOf, checkSignal, checkTimeout } from './validation.js';
import { checkAclProvider } from './acl-provider.js';
import { reconnectDelayOption, type DelayRange } from './session/reconnect-delay.js';

/** Every key of ClientOptions (the unit table pins this list against the type). */
export const CLIENT_OPTION_KEYS = [
  'sessionTimeout', 'connectTimeout', 'maxPacket', 'canBeReadOnly', 'auth', 'sasl', 'tls', 'whileSuspended', 'maxQueued',
  'requestTimeout', 'shuffle', 'sessionId', 'sessionPassword', 'renewSession', 'renewWatches', 'trackEnsemble', 'retry',
  'clock', 'logger', 'reconnectDelay', 'random', 'waitForServer', 'backgroundWrites', 'aclProvider', 'recipeErrorPolicy',
] as const;

/** connect()'s options: ClientOptions plus the wait's signal and timeout. */
export const CONNECT_OPTION_KEYS = [...CLIENT_OPTION_KEYS, 'signal', 'timeout'] as const;

/** The largest packet a server can describe (a signed 32-bit length). */
const MAX_PACKET_LIMIT = 0x7fffffff;
const MAX_SESSION_ID = 2n ** 64n - 1n;

export function checkClientOptions(options: unknown, where: string, keys: readonly string[] = CLIENT_OPTION_KEYS): void {
  checkOptionKeys(options, keys, where);
  if (options === undefined) return;
  const o = options as Record<string, unknown>;
  // The session timeout travels as a 32-bit int and drives timers: 1..2^31-1 ms.
  checkInteger(o['sessionTimeout'], 'sessionTimeout', 1, MAX_TIMER_MS);
  checkTimeout(o['connectTimeout'], 'connectTimeout');
  if (o['connectTimeout'] === 0) throw new InvalidArgumentError('connectTimeout', 'connectTimeout must be at least 1 ms, got 0');
  checkTimeout(o['requestTimeout'], 'requestTimeout');
  checkInteger(o['maxPacket'], 'maxPacket', 1, MAX_PACKET_LIMIT);
  checkInteger(o['maxQueued'], 'maxQueued', 0, Number.MAX_SAFE_INTEGER);
  for (const flag of ['canBeReadOnly', 'shuffle', 'renewSession', 'renewWatches', 'trackEnsemble', 'waitForServer']) checkBoolean(o[flag], flag);
  checkOneOf(o['whileSuspended'], 'whileSuspended', ['queue', 'fail']);
  checkOneOf(o['recipeErrorPolicy'], 'recipeErrorPolicy', ['suspended', 'expired']);
  checkAclProvider(o['aclProvider']);
  checkObjectWith(o['tls'], 'tls', [], false);
  checkObjectWith(o['sasl'], 'sasl', [], false);
  checkObjectWith(o['retry'], 'retry', ['delayBefore'], true);
  checkObjectWith(o['clock'], 'clock', ['now', 'setTimeout', 'clearTimeout'], true);
  checkObjectWith(o['logger'], 'logger', ['debug', 'info', 'warn', 'error'], false);
  checkFunction(o['random'], 'random');
  reconnectDelayOption(o['reconnectDelay'] as DelayRange | undefined);
  checkBackgroundWrites(o['backgroundWrites']);
  const id = o['sessionId'];
  if (id !== undefined && (typeof id !== 'bigint' || id < 0n || id > MAX_SESSION_ID)) {
    throw new InvalidArgumentError('sessionId', `sessionId must be a bigint in 0..2^64-1, got ${describeValue(id)}`);
  }
  const password = o['sessionPassword'];
  if (password !== undefined && !(password instanceof Uint8Array)) {
    throw new InvalidArgumentError('sessionPassword', `sessionPassword must be a Uint8Array, got ${describeValue(password)}`);
  }
  if (id !== undefined && password === undefined) {
    throw new InvalidArgumentError('sessionPassword', `re-attaching to session ${describeValue(id)} needs its password`);
  }
  if (keys === CONNECT_OPTION_KEYS) {
    checkSignal(o['signal']);
    checkTimeout(o['timeout']);
  }
}

/** `backgroundWrites: { maxAttempts, maxTime }`: at least one try, a time that fits a timer. */
function checkBackgroundWrites(value: unknown): void {
  if (value === undefined) return;
  checkObjectWith(value, 'backgroundWrites', [], false);
  checkOptionKeys(value, ['maxAttempts', 'maxTime'], 'backgroundWrites');
  const o = value as Record<string, unknown>;
  checkInteger(o['maxAttempts'], 'backgroundWrites.maxAttempts', 1, Number.MAX_SAFE_INTEGER);
  checkTimeout(o['maxTime'], 'backgroundWrites.maxTime');
}
