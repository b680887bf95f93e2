/**
 * Credentials (addAuth) for the life of the session: remembered, replayed first on every connection (before
 * SetWatches and queued requests, the Java wire order), and matched with their replies. The server answers auth
 * packets in order with xid -4, so each packet on the wire has one slot, oldest first, holding the callers that
 * wait for its answer.
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

export class AuthReplay {
  private readonly credentials: Credential[] = [];
  /** One slot per auth packet on the wire (FIFO like the replies): who waits for its answer. */
  private slots: AuthWaiter[][] = [];
  /** addAuth calls made while disconnected: answered by their own credential's reply in the next replay. */
  private waitingForReplay: AuthWaiter[] = [];

  constructor(initial: readonly Credential[]) {
    for (const c of initial) this.credentials.push({ scheme: c.scheme, auth: c.auth });
  }

  /** Remembers a credential; sends it now on an open connection, else with the next replay. */
  add(credential: Credential, conn: Connection | null, waiter: AuthWaiter): void {
    this.credentials.push(credential);
    if (conn !== null) {
      conn.sendAuth(credential.scheme, credential.auth);
      this.slots.push([waiter]);
    } else {
      this.waitingForReplay.push(waiter);
    }
  }

  /** Right after a handshake: every credential, in the order they were added. */
  replay(conn: Connection): void {
    const waiting = this.waitingForReplay;
    this.waitingForReplay = [];
    this.slots = [];
    for (const cred of this.credentials) {
      conn.sendAuth(cred.scheme, cred.auth);
      this.slots.push([]);
    }
    // The calls made while disconnected added the newest credentials, so the last slot's reply is theirs.
    const last = this.slots[this.slots.length - 1];
    if (last === undefined) for (const w of waiting) w.resolve();
    else last.push(...waiting);
  }

  /**
   * The server answered the oldest auth packet. An AUTH_FAILED answer ends the session (the server closes the
   * connection after it): the error is returned for the session to end with.
   */
  answered(err: number): AuthFailedError | undefined {
    const slot = this.slots.shift() ?? [];
    if (err === KeeperCode.AUTH_FAILED) {
      const error = new AuthFailedError('the server rejected the credentials');
      for (const w of slot) w.reject(error);
      return error;
    }
    if (err !== 0) {
      const error = errorFromKeeperCode(err);
      for (const w of slot) w.reject(error);
      return undefined;
    }
    for (const w of slot) w.resolve();
    return undefined;
  }

  /** The connection dropped before some answers came: those callers cannot know the outcome. */
  connectionLost(cause: ZkError): void {
    const slots = this.slots;
    this.slots = [];
    for (const slot of slots) for (const w of slot) w.reject(new ConnectionLossError(`connection lost before the auth reply: ${cause.message}`, true, { cause }));
  }

  /** The session is over: calls still waiting for a replay fail with its reason. */
  fail(error: ZkError): void {
    for (const w of this.waitingForReplay.splice(0)) w.reject(error);
  }
}
