/**
 * Credentials (options.auth and addAuth) for the life of the session: remembered, replayed on every connection
 * before SetWatches and queued requests (the Java wire order), and matched with their replies. The server
 * answers auth packets in order with xid -4, so each packet on the wire has one slot, oldest first, holding
 * its scheme and the callers that wait for its answer.
 *
 * The session opens a connection (SetWatches, queued requests, state `connected`) only once every replayed
 * credential is answered (`whenAnswered`): `connected` means authenticated, and no request of the caller can
 * run before the server knows who it is. That costs no round trip: a new session's credentials leave in the
 * same write as its ConnectRequest (the server reads them after the handshake), so their replies arrive right
 * behind the handshake answer. On a re-attach they wait for the handshake answer, as Java's client holds its
 * writes: a server that finds the session expired answers and closes at once, and unread bytes would turn
 * that close into a reset that can lose the answer. A refusal (AUTH_FAILED) is final: the server stops
 * reading the connection and closes it, so nothing sent behind the credential runs.
 */
import { AuthFailedError, ConnectionLossError, errorFromKeeperCode, type ZkError } from '../../errors/errors.js';
import { KeeperCode } from '../../errors/codes.js';
import type { Connection } from './connection.js';

export interface Credential {
  scheme: string;
  auth: Uint8Array;
}

export interface AuthWaiter {
  resolve(): void;
  reject(error: ZkError): void;
}

interface Slot {
  scheme: string;
  waiters: AuthWaiter[];
}

export class AuthReplay {
  // The three lists are made on first use: most sessions have no credential, and these are per session.
  private credentials: Credential[] | null = null;
  /** One slot per auth packet on the wire (FIFO like the replies). */
  private slots: Slot[] | null = null;
  /** addAuth calls made while no connection took credentials: answered by their own credential's reply in the next replay. */
  private waitingForReplay: AuthWaiter[] | null = null;
  /** The connection the credentials were replayed on: addAuth sends on it at once. */
  private on: Connection | null = null;
  /** Runs once every credential on `on` is answered (the session opens the connection). */
  private then: (() => void) | null = null;

  constructor(initial: readonly Credential[]) {
    if (initial.length > 0) this.credentials = initial.map((c) => ({ scheme: c.scheme, auth: c.auth }));
  }

  /**
   * For a session whose first credential comes from addAuth: as if the (empty) replay had run on `conn`, the
   * connection that takes the caller's requests (null: none does yet), so the credential leaves on it at once.
   */
  static startedOn(conn: Connection | null): AuthReplay {
    const replay = new AuthReplay([]);
    if (conn !== null) replay.replay(conn);
    return replay;
  }

  /** Remembers a credential; sends it now on a connection that took the replay, else with the next replay. */
  add(credential: Credential, conn: Connection | null, waiter: AuthWaiter): void {
    (this.credentials ??= []).push(credential);
    if (conn !== null && conn === this.on && conn.phase !== 'closed') {
      conn.sendAuth(credential.scheme, credential.auth);
      (this.slots ??= []).push({ scheme: credential.scheme, waiters: [waiter] });
    } else {
      (this.waitingForReplay ??= []).push(waiter);
    }
  }

  /** Every credential on `conn`, in the order they were added. */
  replay(conn: Connection): void {
    // Slots left by a connection that died before the session saw it: their callers hear the loss.
    if (this.slots !== null && this.slots.length > 0) this.connectionLost(new ConnectionLossError('connection replaced before the auth reply', true));
    const waiting = this.waitingForReplay;
    this.waitingForReplay = null;
    this.on = conn;
    this.then = null;
    if (this.credentials === null) return;
    const slots = (this.slots ??= []);
    for (const cred of this.credentials) {
      conn.sendAuth(cred.scheme, cred.auth);
      slots.push({ scheme: cred.scheme, waiters: [] });
    }
    if (waiting === null) return;
    // The calls made while disconnected added the newest credentials, so the last slot's reply is theirs.
    const last = slots[slots.length - 1];
    if (last === undefined) for (const w of waiting) w.resolve();
    else last.waiters.push(...waiting);
  }

  /** Calls `then` once every credential is answered on `conn`, replaying them first unless they went already. */
  whenAnswered(conn: Connection, then: () => void): void {
    if (this.on !== conn) this.replay(conn);
    if (this.slots === null || this.slots.length === 0) then();
    else this.then = then;
  }

  /**
   * The server answered the oldest auth packet: its scheme, and the error it answered (null: accepted). An
   * AuthFailedError (the AUTH_FAILED answer) ends the session: the server stops reading the connection and
   * closes it. Any other error is the callers' alone.
   */
  answered(err: number): { scheme: string; error: ZkError | null } {
    const slot = this.slots?.shift() ?? { scheme: '?', waiters: [] };
    if (err === KeeperCode.AUTH_FAILED) {
      const error = new AuthFailedError(
        `the server refused the credential of scheme ${JSON.stringify(slot.scheme)} (an unknown scheme, or a credential the scheme rejects)`,
        { cause: errorFromKeeperCode(err) },
      );
      for (const w of slot.waiters) w.reject(error);
      return { scheme: slot.scheme, error };
    }
    // Any other answer leaves the connection up: the caller hears it, the connection goes on.
    const error = err === 0 ? null : errorFromKeeperCode(err);
    for (const w of slot.waiters) {
      if (error === null) w.resolve();
      else w.reject(error);
    }
    const then = this.then;
    if (then !== null && (this.slots === null || this.slots.length === 0)) {
      this.then = null;
      then();
    }
    return { scheme: slot.scheme, error };
  }

  /** The connection dropped before some answers came: those callers cannot know the outcome. */
  connectionLost(cause: ZkError): void {
    const slots = this.slots;
    this.slots = null;
    this.on = null;
    this.then = null;
    if (slots === null) return;
    for (const slot of slots) {
      for (const w of slot.waiters) w.reject(new ConnectionLossError(`connection lost before the auth reply: ${cause.message}`, true, { cause }));
    }
  }

  /** The session is over: calls still waiting for a replay fail with its reason. */
  fail(error: ZkError): void {
    const waiting = this.waitingForReplay;
    this.waitingForReplay = null;
    if (waiting !== null) for (const w of waiting) w.reject(error);
  }
}

/** Calls `then` once every credential of `auth` is answered on `conn`; at once for a session without any. */
export function whenCredentialsAnswered(auth: AuthReplay | null, conn: Connection, then: () => void): void {
  if (auth === null) then();
  else auth.whenAnswered(conn, then);
}
