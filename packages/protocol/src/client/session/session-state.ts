/**
 * The session state machine: one union and one transition table. Anything not in the table is a bug and
 * throws (an internal invariant, never triggered by network input: socket handlers only request
 * transitions that the table allows from the states they run in).
 *
 *   idle ─connect()→ connecting ─handshake→ connected | connected-read-only
 *   connected* ─socket lost→ suspended ─re-attached→ connected*
 *   connecting|connected*|suspended → expired      (server says timeOut ≤ 0, or 4/3·t without the server)
 *   connecting|connected*|suspended → auth-failed  (auth reply -115, SASL refused or failed, any reply -124)
 *   any non-terminal → closed                      (close())
 *   expired ─renewal→ connecting                   (renewSession: a new session, the next generation)
 *
 * With SASL configured, a connection reaches connected* only once the server has accepted the SASL exchange
 * (session/sasl.ts), and with `auth` credentials only once the server has answered every one
 * (auth-replay.ts): until then the state stays connecting (or suspended), so `connected` also means
 * authenticated, Java's SyncConnected and SaslAuthenticated in one. A refusal is auth-failed with the reason.
 *
 * auth-failed and closed are terminal. expired is terminal unless the client renews sessions: then it is
 * followed at once by connecting, and the stream of states goes on with a new session id and generation.
 */
import { ConnectionLossError, type ZkError } from '../../errors/errors.js';
import { debug, stateChannel, summary, type StateMessage } from '../diagnostics.js';
import type { Dispatcher } from '../dispatcher.js';
import type { SessionState, StateChange } from '../types.js';

const TRANSITIONS: Record<SessionState, readonly SessionState[]> = {
  idle: ['connecting', 'closed'],
  connecting: ['connected', 'connected-read-only', 'expired', 'auth-failed', 'closed'],
  connected: ['suspended', 'expired', 'auth-failed', 'closed'],
  'connected-read-only': ['suspended', 'expired', 'auth-failed', 'closed'],
  suspended: ['connected', 'connected-read-only', 'expired', 'auth-failed', 'closed'],
  expired: ['connecting', 'closed'],
  'auth-failed': ['closed'],
  closed: [],
};

export function canTransition(from: SessionState, to: SessionState): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isTerminal(state: SessionState): boolean {
  return state === 'expired' || state === 'auth-failed' || state === 'closed';
}

export function isConnected(state: SessionState): boolean {
  return state === 'connected' || state === 'connected-read-only';
}

/**
 * Why a request cannot go in `state`, or null when it may (sent now, or queued until a connection opens).
 * 'terminal': the session is over, and its own terminal error is the answer.
 */
export function refusalIn(state: SessionState, whileSuspended: 'queue' | 'fail'): ZkError | 'terminal' | null {
  switch (state) {
    case 'idle':
      return new ConnectionLossError('not connected: call connect() first', false);
    case 'expired':
    case 'auth-failed':
    case 'closed':
      return 'terminal';
    case 'suspended':
      return whileSuspended === 'fail' ? new ConnectionLossError('not connected (whileSuspended: fail)', false) : null;
    case 'connecting':
    case 'connected':
    case 'connected-read-only':
      return null;
  }
}

/**
 * The current state and who hears about changes. Listeners run through the dispatcher (one item each, so a
 * listener that throws cannot starve the others, and they see changes in order with replies and events).
 */
export class StateMachine {
  private current: SessionState = 'idle';
  /** Made on the first listener and dropped with the last: most sessions have none once connected. */
  private listeners: Set<(change: StateChange) => void> | null = null;
  private readonly dispatcher: Dispatcher;

  constructor(dispatcher: Dispatcher) {
    this.dispatcher = dispatcher;
  }

  get state(): SessionState {
    return this.current;
  }

  onChange(listener: (change: StateChange) => void): () => void {
    const listeners = (this.listeners ??= new Set());
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.listeners === listeners) this.listeners = null;
    };
  }

  /** Moves to `to` (no-op if already there); anything the table does not allow is a bug and throws. */
  move(to: SessionState, identity: { sessionId: bigint; generation: number }, error?: ZkError): void {
    const previous = this.current;
    if (previous === to) return;
    if (!canTransition(previous, to)) throw new Error(`invalid session transition ${previous} → ${to}`);
    this.current = to;
    const { sessionId, generation } = identity;
    const change: StateChange = error === undefined ? { state: to, previous, sessionId, generation } : { state: to, previous, sessionId, generation, error };
    // Guarded: the arguments (a bigint's hex) would be built on every move even with NODE_DEBUG off.
    if (debug.enabled) debug('state %s → %s (session 0x%s, generation %d)%s', previous, to, sessionId.toString(16), generation, error === undefined ? '' : `: ${error.message}`);
    if (stateChannel.hasSubscribers) {
      stateChannel.publish((error === undefined ? { sessionId, from: previous, to } : { sessionId, from: previous, to, cause: summary(error) }) satisfies StateMessage);
    }
    if (this.listeners !== null) for (const l of [...this.listeners]) this.dispatcher.notify(() => l(change));
  }
}
