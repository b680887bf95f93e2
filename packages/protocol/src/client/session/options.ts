/**
 * What a Session is built from: the client's resolved options plus what the client shares with it (the chroot
 * its watchers strip, the dispatcher that orders everything the user sees, the clock).
 */
import type { ConnectionOptions } from 'node:tls';
import type { Clock } from '../clock.js';
import type { HostAddress } from '../connect-string.js';
import type { Dispatcher } from '../dispatcher.js';
import type { Chroot } from '../chroot.js';
import type { ClientOptions, Logger } from '../types.js';
import { saslMechanism, type SaslMechanism } from '../sasl/mechanism.js';
import type { Credential } from './auth-replay.js';
import { reconnectDelayOption, type DelayRange } from './reconnect-delay.js';
import { sharedHosts } from './transport.js';

export interface SessionOptions {
  hosts: readonly HostAddress[];
  shuffle: boolean;
  sessionTimeout: number;
  connectTimeout: number | undefined;
  maxPacket: number;
  canBeReadOnly: boolean;
  tls: ConnectionOptions | undefined;
  whileSuspended: 'queue' | 'fail';
  maxQueued: number;
  credentials: Credential[];
  /** Run on every connection before anything else (sasl.ts); null: no SASL. */
  sasl: SaslMechanism | null;
  sessionId: bigint | undefined;
  sessionPassword: Uint8Array | undefined;
  renewSession: boolean;
  renewWatches: boolean;
  /** The wait after a dropped connection (reconnect-delay.ts). */
  reconnectDelay: DelayRange;
  /** [0, 1): host order and every jitter. */
  random: () => number;
  clock: Clock;
  dispatcher: Dispatcher;
  root: Chroot;
  /** Told about reconnects, expiries, renewals… (session-report.ts); undefined: nothing is logged. */
  logger: Logger | undefined;
}

const DEFAULT_MAX_QUEUED = 10_000;
const utf8 = new TextEncoder();

/** The session's options from the client's, with the defaults applied. */
export function sessionOptions(
  hosts: readonly HostAddress[],
  options: ClientOptions,
  resolved: Pick<SessionOptions, 'sessionTimeout' | 'maxPacket' | 'clock' | 'dispatcher' | 'root'>,
): SessionOptions {
  // Every field written out, in one order: a spread of `resolved` would give each session's options object a
  // hidden class of its own (~0.5 KB of heap per session in a pool of thousands).
  return {
    sessionTimeout: resolved.sessionTimeout,
    maxPacket: resolved.maxPacket,
    clock: resolved.clock,
    dispatcher: resolved.dispatcher,
    root: resolved.root,
    hosts: sharedHosts(hosts),
    shuffle: options.shuffle ?? true,
    connectTimeout: options.connectTimeout,
    canBeReadOnly: options.canBeReadOnly ?? false,
    tls: options.tls,
    whileSuspended: options.whileSuspended ?? 'queue',
    maxQueued: options.maxQueued ?? DEFAULT_MAX_QUEUED,
    credentials: (options.auth ?? []).map((a) => ({ scheme: a.scheme, auth: typeof a.auth === 'string' ? utf8.encode(a.auth) : a.auth })),
    sasl: saslMechanism(options.sasl),
    sessionId: options.sessionId,
    sessionPassword: options.sessionPassword,
    renewSession: options.renewSession ?? true,
    renewWatches: options.renewWatches ?? true,
    reconnectDelay: reconnectDelayOption(options.reconnectDelay),
    random: options.random ?? Math.random,
    logger: options.logger,
  };
}

/** What a session reads of its options once it is built (the rest — hosts, credentials, ids, delays — only builds it). */
export type KeptSessionOptions = Readonly<
  Pick<SessionOptions, 'sessionTimeout' | 'connectTimeout' | 'maxPacket' | 'canBeReadOnly' | 'tls' | 'whileSuspended' | 'sasl' | 'renewSession' | 'renewWatches'>
>;

/** The record made last: the next session with the same values shares it (it is read-only). */
let lastKept: KeptSessionOptions | null = null;

/**
 * A record of those alone: a session in a pool of thousands does not keep the whole options record alive, and
 * sessions made with the same options (a pool's) share one record.
 */
export function keptSessionOptions(o: SessionOptions): KeptSessionOptions {
  const last = lastKept;
  if (
    last !== null && last.sessionTimeout === o.sessionTimeout && last.connectTimeout === o.connectTimeout && last.maxPacket === o.maxPacket &&
    last.canBeReadOnly === o.canBeReadOnly && last.tls === o.tls && last.whileSuspended === o.whileSuspended && last.sasl === o.sasl &&
    last.renewSession === o.renewSession && last.renewWatches === o.renewWatches
  ) {
    return last;
  }
  return (lastKept = {
    sessionTimeout: o.sessionTimeout,
    connectTimeout: o.connectTimeout,
    maxPacket: o.maxPacket,
    canBeReadOnly: o.canBeReadOnly,
    tls: o.tls,
    whileSuspended: o.whileSuspended,
    sasl: o.sasl,
    renewSession: o.renewSession,
    renewWatches: o.renewWatches,
  });
}
