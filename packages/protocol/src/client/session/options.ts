/**
 * What a Session is built from: the client's resolved options plus the collaborators the client owns and
 * shares with it (the dispatcher that orders everything the user sees, the watches facade, the clock).
 */
import type { ConnectionOptions } from 'node:tls';
import type { Clock } from '../clock.js';
import type { HostAddress } from '../connect-string.js';
import type { Dispatcher } from '../dispatcher.js';
import type { SessionWatches } from '../watches.js';
import type { Credential } from './auth-replay.js';

export interface SessionOptions {
  hosts: HostAddress[];
  shuffle: boolean;
  sessionTimeout: number;
  connectTimeout: number | undefined;
  maxPacket: number;
  canBeReadOnly: boolean;
  tls: ConnectionOptions | undefined;
  whileSuspended: 'queue' | 'fail';
  maxQueued: number;
  credentials: Credential[];
  sessionId: bigint | undefined;
  sessionPassword: Uint8Array | undefined;
  renewSession: boolean;
  renewWatches: boolean;
  clock: Clock;
  dispatcher: Dispatcher;
  watches: SessionWatches;
}
