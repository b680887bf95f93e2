/**
 * The handshake (zookeeper.jute, module org.apache.zookeeper.proto). Neither frame has a header.
 *
 *   class ConnectRequest  { int protocolVersion; long lastZxidSeen; int timeOut; long sessionId; buffer passwd; }
 *   class ConnectResponse { int protocolVersion; int timeOut; long sessionId; buffer passwd; }
 *
 * Both are followed on the wire by a `boolean readOnly` that is not in the Jute grammar (ClientCnxn writes it
 * by hand; servers up to 3.3 neither send nor expect it). A ConnectResponse with timeOut <= 0 means the
 * session expired.
 */
import type { JuteReader } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';

/** The `ConnectRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface ConnectRequest {
  protocolVersion: number;
  lastZxidSeen: bigint;
  timeOut: number;
  sessionId: bigint;
  passwd: Uint8Array | null;
}

/**
 * `readOnly` is the trailing byte: a boolean writes it (every current client does); undefined leaves it out,
 * as a pre-3.4 client would (and as the bare Jute record is).
 */
export function writeConnectRequest(w: JuteWriter, v: ConnectRequest, readOnly?: boolean): void {
  w.writeInt(v.protocolVersion);
  w.writeLong(v.lastZxidSeen);
  w.writeInt(v.timeOut);
  w.writeLong(v.sessionId);
  w.writeBuffer(v.passwd);
  if (readOnly !== undefined) w.writeBool(readOnly);
}

/** The trailing readOnly byte is read when present (`undefined` when the frame ends before it). */
export function readConnectRequest(r: JuteReader): ConnectRequest & { readOnly: boolean | undefined } {
  const protocolVersion = r.readInt();
  const lastZxidSeen = r.readLong();
  const timeOut = r.readInt();
  const sessionId = r.readLong();
  const passwd = r.readBuffer();
  const readOnly = r.remaining > 0 ? r.readBool() : undefined;
  return { protocolVersion, lastZxidSeen, timeOut, sessionId, passwd, readOnly };
}

/** The `ConnectResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface ConnectResponse {
  protocolVersion: number;
  timeOut: number;
  sessionId: bigint;
  passwd: Uint8Array | null;
}

/** Writes `v` as a `ConnectResponse`. */
export function writeConnectResponse(w: JuteWriter, v: ConnectResponse, readOnly?: boolean): void {
  w.writeInt(v.protocolVersion);
  w.writeInt(v.timeOut);
  w.writeLong(v.sessionId);
  w.writeBuffer(v.passwd);
  if (readOnly !== undefined) w.writeBool(readOnly);
}

/** The trailing readOnly byte is absent from servers up to 3.3: `readOnly` is then undefined. */
export function readConnectResponse(r: JuteReader): ConnectResponse & { readOnly: boolean | undefined } {
  const protocolVersion = r.readInt();
  const timeOut = r.readInt();
  const sessionId = r.readLong();
  const passwd = r.readBuffer();
  const readOnly = r.remaining > 0 ? r.readBool() : undefined;
  return { protocolVersion, timeOut, sessionId, passwd, readOnly };
}
