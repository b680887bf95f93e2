/**
 * Ending a session on the server: closeSession, then the socket. The session's listeners have heard 'closed'
 * before the request leaves; requests already on the wire still get their replies first (the server answers in
 * order), and the socket is dropped after a grace period in case the server never closes its side.
 */
import type { Clock } from '../clock.js';
import type { Connection } from './connection.js';
import { debug } from '../diagnostics.js';
import type { Dispatcher } from '../dispatcher.js';
import { Call, type Canceller } from '../request.js';
import { closeSession } from '../requests.js';

/** How long close() waits for the server to close its side after closeSession before dropping the socket. */
const CLOSE_GRACE_MS = 1000;

export async function closeOnServer(conn: Connection, canceller: Canceller, dispatcher: Dispatcher, clock: Clock, negotiated: number): Promise<void> {
  const call = new Call<void>(closeSession(), { dispatcher, canceller, clock, stats: null }, { timeout: Math.min(2000, Math.max(100, negotiated)) });
  // The session's listeners hear 'closed' before the server does: a lock's `lost` or a leader's signal must fire
  // before the ephemeral nodes go and someone else can take over. A listener may be waiting a turn behind a reply
  // (dispatcher.ts), so the request takes its place behind them in the same queue.
  dispatcher.notify(() => conn.send(call));
  try {
    await call.promise;
  } catch (err) {
    debug('closeSession failed: %s', (err as Error).message);
  }
  conn.end();
  // end() flushes; destroy after the grace period.
  clock.setTimeout(() => conn.close(), CLOSE_GRACE_MS, { unref: true });
}
