/**
 * Who the session is: its id and password, the negotiated timeout, the highest zxid seen, and its generation
 * (1 for the client's first session, +1 for each one opened after an expiry). It builds the ConnectRequest, so
 * the rule for re-attaching lives in one place: a session is re-attached only if it was born on a read-write
 * server (a read-only server's session cannot move).
 */
import type { ConnectRequest } from '../../codec/records/connect.js';
import { PROTOCOL_VERSION, SESSION_PASSWORD_LENGTH } from '../../codec/records/constants.js';
import type { HandshakeResult } from './connection.js';

/** No password yet (zeros, as Java sends): one for every identity, never written to. */
const NO_PASSWORD = new Uint8Array(SESSION_PASSWORD_LENGTH);

/**
 * A password is kept for the session's life: copied into a shared slab rather than an ArrayBuffer of its own
 * (a view costs half of a buffer object and its view, and thousands of sessions keep one each).
 */
const SLAB_SIZE = 4096;
let slab = new Uint8Array(SLAB_SIZE);
let slabPos = 0;

function keep(bytes: Uint8Array): Uint8Array {
  if (bytes.length > 64) return bytes.slice();
  if (slabPos + bytes.length > SLAB_SIZE) {
    slab = new Uint8Array(SLAB_SIZE);
    slabPos = 0;
  }
  const out = slab.subarray(slabPos, slabPos + bytes.length);
  out.set(bytes);
  slabPos += bytes.length;
  return out;
}

export class SessionIdentity {
  id = 0n;
  /** Read only (shared slabs and NO_PASSWORD): callers get copies. */
  password: Uint8Array = NO_PASSWORD;
  /** ms; 0 until a handshake, and again after an expiry. */
  negotiated = 0;
  highestZxid = 0n;
  generation = 1;
  private seenRwServer: boolean;

  constructor(reattach: { sessionId: bigint; password: Uint8Array | undefined } | undefined) {
    if (reattach !== undefined) {
      this.id = reattach.sessionId;
      this.password = reattach.password ?? NO_PASSWORD;
    }
    // A session handed to us must have been born on a read-write server to be re-attachable.
    this.seenRwServer = reattach !== undefined;
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
    this.password = response.passwd === null ? NO_PASSWORD : keep(response.passwd);
    this.negotiated = response.timeOut;
    if (response.readOnly !== true) this.seenRwServer = true;
    return previous;
  }

  sawZxid(zxid: bigint): void {
    if (zxid > this.highestZxid) this.highestZxid = zxid;
  }

  /** The session expired and a new one will be opened: a fresh identity, the next generation (zxids keep rising). */
  renew(): void {
    this.id = 0n;
    this.password = NO_PASSWORD;
    this.negotiated = 0;
    this.seenRwServer = false;
    this.generation++;
  }
}
