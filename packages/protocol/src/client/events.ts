/**
 * `zk.on('connected', …)` for people coming from EventEmitter clients (node-zookeeper-client, ioredis). It is a
 * thin layer over onStateChange/onConnectFailure, not an EventEmitter: listeners run on the client's ordered
 * dispatch, a listener that throws is reported (logger, NODE_DEBUG) instead of breaking anything, and there is no
 * 'error' event, so nothing crashes the process for want of a listener. Failures reject the call that met them;
 * the end of a session is the 'expired' (or 'auth-failed', 'closed') event.
 *
 * ZkClient's on/once/off/removeListener keep their registrations here; they are what Node's
 * `events.once(zk, 'connected')` and `events.on(zk, 'state')` call, so those work too.
 */
import type { ConnectAttempt } from '../errors/errors.js';
import { InvalidArgumentError } from '../errors/errors.js';
import { describeValue } from '../errors/option-keys.js';
import type { BackgroundWriteEvent, SessionState, StateChange } from './types.js';
import { checkFunction } from './validation.js';

/** on/once/off's listener argument: a function. */
export function checkListener(listener: unknown): void {
  if (listener === undefined) throw new InvalidArgumentError('listener', 'listener must be a function, got undefined');
  checkFunction(listener, 'listener');
}

/**
 * The events `zk.on()` takes and what their listeners receive: `'state'` for every change, one event per state
 * entered (`'connected'`, `'suspended'`, `'expired'`…), and `'connectFailure'` for each failed attempt to reach
 * a server while not connected, `'backgroundWrite'` for each step of a write finished in the background
 * (guaranteed delete, protected-create clean-up).
 */
export type ClientEvents = { state: StateChange; connectFailure: ConnectAttempt; backgroundWrite: BackgroundWriteEvent } & { [S in Exclude<SessionState, 'idle'>]: StateChange };

/** A listener of one client event. */
export type ClientEventListener<E extends keyof ClientEvents> = (payload: ClientEvents[E]) => void;

/** What the listeners hook into: the session, and the background writes. */
export interface EventSource {
  onStateChange(listener: (change: StateChange) => void): () => void;
  onConnectFailure(listener: (attempt: ConnectAttempt) => void): () => void;
}
export interface WriteEventSource {
  onEvent(listener: (event: BackgroundWriteEvent) => void): () => void;
}

const STATES: ReadonlySet<string> = new Set<SessionState>(['connecting', 'connected', 'connected-read-only', 'suspended', 'expired', 'auth-failed', 'closed']);

type AnyListener = (payload: never) => void;
interface Registration {
  readonly event: string;
  readonly listener: AnyListener;
  readonly unsubscribe: () => void;
}

/** One client's registrations, in order (made on its first `on`/`once`). */
/** 'state', 'connectFailure', 'backgroundWrite', a state name, or 'error' (accepted for Node's events.once, never emitted). */
export function checkEventName(event: unknown): void {
  if (event === 'error' || event === 'state' || event === 'connectFailure' || event === 'backgroundWrite' || (typeof event === 'string' && STATES.has(event))) return;
  throw new InvalidArgumentError('event', `unknown client event ${describeValue(event)}: 'state', 'connectFailure', 'backgroundWrite' or a state name`);
}

export class ClientListeners {
  private readonly list: Registration[] = [];
  private readonly source: EventSource;
  private readonly writes: WriteEventSource;

  constructor(source: EventSource, writes: WriteEventSource) {
    this.source = source;
    this.writes = writes;
  }

  add(event: string, listener: AnyListener, once: boolean): void {
    // Node's events.once(zk, name) also listens for 'error', which this client never emits: accepted, never called.
    if (event === 'error') return;
    checkEventName(event);
    const list = this.list;
    const deliver = (payload: StateChange | ConnectAttempt | BackgroundWriteEvent): void => {
      if (once) unsubscribe();
      (listener as (payload: StateChange | ConnectAttempt | BackgroundWriteEvent) => void)(payload);
    };
    const off =
      event === 'connectFailure'
        ? this.source.onConnectFailure(deliver)
        : event === 'backgroundWrite'
          ? this.writes.onEvent(deliver)
          : this.source.onStateChange(event === 'state' ? deliver : (change) => change.state === event && deliver(change));
    const registration: Registration = { event, listener, unsubscribe: () => unsubscribe() };
    function unsubscribe(): void {
      off();
      const at = list.indexOf(registration);
      if (at >= 0) list.splice(at, 1);
    }
    list.push(registration);
  }

  /** Removes the most recent registration of `listener` for `event`. */
  remove(event: string, listener: AnyListener): void {
    const list = this.list;
    for (let i = list.length - 1; i >= 0; i--) {
      const r = list[i];
      if (r !== undefined && r.event === event && r.listener === listener) return r.unsubscribe();
    }
  }
}
