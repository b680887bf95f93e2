/**
 * `zk.on('connected', …)` for people coming from EventEmitter clients (node-zookeeper-client, ioredis). It is a
 * thin layer over onStateChange/onConnectFailure, not an EventEmitter: listeners run on the client's ordered
 * dispatch, a listener that throws is reported (logger, NODE_DEBUG) instead of breaking anything, and there is no
 * 'error' event, so nothing crashes the process for want of a listener. Failures reject the call that met them;
 * the end of a session is the 'expired' (or 'auth-failed', 'closed') event.
 *
 * on/once/off/removeListener are what Node's `events.once(zk, 'connected')` and `events.on(zk, 'state')` call,
 * so those work too. The methods are added to ZkClient's prototype here, keeping client.ts to the operations.
 */
import type { ConnectAttempt } from '../errors/errors.js';
import { InvalidArgumentError } from '../errors/errors.js';
import { ZkClient } from './client.js';
import type { SessionState, StateChange } from './types.js';

/**
 * The events `zk.on()` takes and what their listeners receive: `'state'` for every change, one event per state
 * entered (`'connected'`, `'suspended'`, `'expired'`…), and `'connectFailure'` for each failed attempt to reach
 * a server while not connected.
 */
export type ClientEvents = { state: StateChange; connectFailure: ConnectAttempt } & { [S in Exclude<SessionState, 'idle'>]: StateChange };

/** A listener of one client event. */
export type ClientEventListener<E extends keyof ClientEvents> = (payload: ClientEvents[E]) => void;

declare module './client.js' {
  interface ZkClient {
    /** Calls `listener` on every `event` from now on (see {@link ClientEvents}). Returns the client. */
    on<E extends keyof ClientEvents>(event: E, listener: ClientEventListener<E>): this;
    /** Calls `listener` on the next `event` only. Returns the client. */
    once<E extends keyof ClientEvents>(event: E, listener: ClientEventListener<E>): this;
    /** Removes a listener added with on/once (the most recent registration of it for `event`). */
    off<E extends keyof ClientEvents>(event: E, listener: ClientEventListener<E>): this;
    /** The same as {@link ZkClient.off}, under the name Node's `events` helpers call. */
    removeListener<E extends keyof ClientEvents>(event: E, listener: ClientEventListener<E>): this;
  }
}

const STATES: ReadonlySet<string> = new Set<SessionState>(['connecting', 'connected', 'connected-read-only', 'suspended', 'expired', 'auth-failed', 'closed']);

type AnyListener = (payload: never) => void;
interface Registration {
  readonly event: string;
  readonly listener: AnyListener;
  readonly unsubscribe: () => void;
}

/** Per client, its registrations in order; a WeakMap so a closed and dropped client takes them with it. */
const registry = new WeakMap<ZkClient, Registration[]>();

function subscribe(client: ZkClient, event: string, listener: AnyListener, once: boolean): void {
  // Node's events.once(zk, name) also listens for 'error', which this client never emits: accepted, never called.
  if (event === 'error') return;
  if (event !== 'state' && event !== 'connectFailure' && !STATES.has(event)) {
    throw new InvalidArgumentError('event', `unknown client event ${JSON.stringify(event)}: 'state', 'connectFailure' or a state name`);
  }
  const list = registry.get(client) ?? [];
  registry.set(client, list);
  const deliver = (payload: StateChange | ConnectAttempt): void => {
    if (once) unsubscribe();
    (listener as (payload: StateChange | ConnectAttempt) => void)(payload);
  };
  const off =
    event === 'connectFailure'
      ? client.onConnectFailure(deliver)
      : client.onStateChange(event === 'state' ? deliver : (change) => change.state === event && deliver(change));
  const registration: Registration = { event, listener, unsubscribe: () => unsubscribe() };
  function unsubscribe(): void {
    off();
    const at = list.indexOf(registration);
    if (at >= 0) list.splice(at, 1);
  }
  list.push(registration);
}

function unsubscribeLast(client: ZkClient, event: string, listener: AnyListener): void {
  const list = registry.get(client) ?? [];
  for (let i = list.length - 1; i >= 0; i--) {
    const r = list[i];
    if (r !== undefined && r.event === event && r.listener === listener) return r.unsubscribe();
  }
}

ZkClient.prototype.on = function on(this: ZkClient, event: keyof ClientEvents, listener: AnyListener) {
  subscribe(this, event, listener, false);
  return this;
};
ZkClient.prototype.once = function once(this: ZkClient, event: keyof ClientEvents, listener: AnyListener) {
  subscribe(this, event, listener, true);
  return this;
};
ZkClient.prototype.off = function off(this: ZkClient, event: keyof ClientEvents, listener: AnyListener) {
  unsubscribeLast(this, event, listener);
  return this;
};
ZkClient.prototype.removeListener = ZkClient.prototype.off;
