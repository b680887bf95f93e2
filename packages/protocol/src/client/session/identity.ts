/**
 * Who the session is: its id and password, the negotiated timeout, the highest zxid seen, its generation
 * (1 for the client's first session, +1 for each one opened after an expiry), and the numbers its requests carry. It builds the ConnectRequest, so
 * the rule for re-attaching lives in one place: a session is re-attached only if it was born on a read-write
 * server (a read-only server's session cannot move).
 */
import type { ConnectRequest } from '../../codec/records/connect.js';
import { PROTOCOL_VERSION, SESSION_PASSWORD_LENGTH } from '../../codec/records/constants.js';
import type { HandshakeResult } from './connection.js';

/** No password yet (zeros, as Java sends): one for every identity, never written to. */
const NO_PASSWORD = new Uint8Array(SESSION_PASSWORD_LENGTH);

/**
 * A password as a flat string of one char per byte (latin1 maps each byte to one char and back): 32 bytes of
 * heap for Java's 16-byte password, where a Uint8Array view takes 96.
 */
function asText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function asBytes(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

export class SessionIdentity {
  id = 0n;
  /** The password, kept for the session's life as text (asText); null: none yet. */
  private secret: string | null = null;
  /** ms; 0 until a handshake, and again after an expiry. */
  negotiated = 0;
  highestZxid = 0n;
  generation = 1;
  private seenRwServer: boolean;
  /** The next request's xid: no two requests of one session share one, whichever connection they took. */
  private nextXid = 1;

  constructor(reattach: { sessionId: bigint; password: Uint8Array | undefined } | undefined) {
    if (reattach !== undefined) {
      this.id = reattach.sessionId;
      this.secret = reattach.password === undefined ? null : asText(reattach.password);
    }
    // A session handed to us must have been born on a read-write server to be re-attachable.
    this.seenRwServer = reattach !== undefined;
  }

  /** Read only when NO_PASSWORD: callers copy it. */
  get password(): Uint8Array {
    return this.secret === null ? NO_PASSWORD : asBytes(this.secret);
  }

  connectRequest(requestedTimeout: number): ConnectRequest {
    const reattach = this.seenRwServer && this.id !== 0n;
    return {
      protocolVersion: PROTOCOL_VERSION,
      lastZxidSeen: this.highestZxid,
      timeOut: requestedTimeout,
      sessionId: reattach ? this.id : 0n,
      passwd: reattach ? this.password : NO_PASSWORD,
    };
  }

  /** A handshake answered; returns the previous id (a read-only session may be replaced by a new one). */
  adopt(response: HandshakeResult): bigint {
    const previous = this.id;
    this.id = response.sessionId;
    this.secret = response.passwd === null ? null : asText(response.passwd);
    this.negotiated = response.timeOut;
    if (response.readOnly !== true) this.seenRwServer = true;
    return previous;
  }

  /** Normal xids: 1..2^31-1, wrapping to 1 (never 0 or negative: those are special or break server accounting). */
  takeXid(): number {
    const xid = this.nextXid;
    this.nextXid = xid >= 0x7fffffff ? 1 : xid + 1;
    return xid;
  }

  sawZxid(zxid: bigint): void {
    if (zxid > this.highestZxid) this.highestZxid = zxid;
  }

  /** The session expired and a new one will be opened: a fresh identity, the next generation (zxids keep rising). */
  renew(): void {
    this.id = 0n;
    this.secret = null;
    this.negotiated = 0;
    this.seenRwServer = false;
    this.generation++;
  }
}
