/**
 * Observability without printing: diagnostics_channel channels (subscribers get plain objects) and
 * `NODE_DEBUG=zkts` text. Publishing is skipped when nobody subscribes.
 */
import { channel } from 'node:diagnostics_channel';
import { debuglog } from 'node:util';

export const requestChannel = channel('zkts:request');
export const replyChannel = channel('zkts:reply');
export const eventChannel = channel('zkts:event');
export const stateChannel = channel('zkts:state');

export const debug = debuglog('zkts');

export interface RequestMessage {
  sessionId: bigint;
  xid: number;
  op: number;
  opName: string;
  path: string | undefined;
}

export interface ReplyMessage {
  sessionId: bigint;
  xid: number;
  zxid: bigint;
  err: number;
  op: number | undefined;
  opName: string | undefined;
}

export interface EventMessage {
  sessionId: bigint;
  type: string;
  path: string;
  zxid: bigint;
}

export interface StateMessage {
  sessionId: bigint;
  state: string;
  previous: string;
  error: unknown;
}
