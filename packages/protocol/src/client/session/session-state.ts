/**
 * The session state machine: one union and one transition table. Anything not in the table is a bug and
 * throws (an internal invariant, never triggered by network input: socket handlers only request
 * transitions that the table allows from the states they run in).
 *
 *   idle ─connect()→ connecting ─handshake→ connected | connected-read-only
 *   connected* ─socket lost→ suspended ─re-attached→ connected*
 *   connecting|connected*|suspended → expired      (server says timeOut ≤ 0, or 4/3·t without the server)
 *   connecting|connected*|suspended → auth-failed  (auth reply -115)
 *   any non-terminal → closed                      (close())
 *
 * expired, auth-failed and closed are terminal: the client never opens a replacement session itself.
 */
import type { SessionState } from '../types.js';

const TRANSITIONS: Record<SessionState, readonly SessionState[]> = {
  idle: ['connecting', 'closed'],
  connecting: ['connected', 'connected-read-only', 'expired', 'auth-failed', 'closed'],
  connected: ['suspended', 'expired', 'auth-failed', 'closed'],
  'connected-read-only': ['suspended', 'expired', 'auth-failed', 'closed'],
  suspended: ['connected', 'connected-read-only', 'expired', 'auth-failed', 'closed'],
  expired: ['closed'],
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
