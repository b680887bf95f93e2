/**
 * Authentication (zookeeper.jute, module org.apache.zookeeper.proto).
 *
 *   class AuthPacket      { int type; ustring scheme; buffer auth; }   auth (100), xid -4, type always 0
 *   class GetSASLRequest  { buffer token; }                            sasl (102); also how the client reads
 *                                                                      the server's token (ClientCnxn)
 *   class SetSASLRequest  { buffer token; }
 *   class SetSASLResponse { buffer token; }                            the server's answer to sasl (102)
 *   class WhoAmIResponse  { vector<org.apache.zookeeper.data.ClientInfo> clientInfo; }   whoAmI (107), no body
 *
 * An auth reply with err -115 (AUTH_FAILED) ends the session for good.
 */
import type { JuteReader } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';
import { readClientInfo, writeClientInfo, type ClientInfo } from './data.js';

/** The `AuthPacket` record of zookeeper.jute, field for field (see this file's header). */
export interface AuthPacket {
  type: number;
  scheme: string | null;
  auth: Uint8Array | null;
}

/** Writes `v` as a `AuthPacket`. */
export function writeAuthPacket(w: JuteWriter, v: AuthPacket): void {
  w.writeInt(v.type);
  w.writeString(v.scheme);
  w.writeBuffer(v.auth);
}

/** Reads a `AuthPacket` from `r`. */
export function readAuthPacket(r: JuteReader): AuthPacket {
  const type = r.readInt();
  const scheme = r.readString();
  return { type, scheme, auth: r.readBuffer() };
}

/** The `GetSASLRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface GetSASLRequest {
  token: Uint8Array | null;
}

/** Writes `v` as a `GetSASLRequest`. */
export function writeGetSASLRequest(w: JuteWriter, v: GetSASLRequest): void {
  w.writeBuffer(v.token);
}

/** Reads a `GetSASLRequest` from `r`. */
export function readGetSASLRequest(r: JuteReader): GetSASLRequest {
  return { token: r.readBuffer() };
}

/** The `SetSASLRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface SetSASLRequest {
  token: Uint8Array | null;
}

/** Writes `v` as a `SetSASLRequest`. */
export function writeSetSASLRequest(w: JuteWriter, v: SetSASLRequest): void {
  w.writeBuffer(v.token);
}

/** Reads a `SetSASLRequest` from `r`. */
export function readSetSASLRequest(r: JuteReader): SetSASLRequest {
  return { token: r.readBuffer() };
}

/** The `SetSASLResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface SetSASLResponse {
  token: Uint8Array | null;
}

/** Writes `v` as a `SetSASLResponse`. */
export function writeSetSASLResponse(w: JuteWriter, v: SetSASLResponse): void {
  w.writeBuffer(v.token);
}

/** Reads a `SetSASLResponse` from `r`. */
export function readSetSASLResponse(r: JuteReader): SetSASLResponse {
  return { token: r.readBuffer() };
}

/** The `WhoAmIResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface WhoAmIResponse {
  clientInfo: ClientInfo[] | null;
}

/** Smallest ClientInfo: two null strings. */
const CLIENT_INFO_MIN_SIZE = 8;

/** Writes `v` as a `WhoAmIResponse`. */
export function writeWhoAmIResponse(w: JuteWriter, v: WhoAmIResponse): void {
  w.writeVector(v.clientInfo, writeClientInfo);
}

/** Reads a `WhoAmIResponse` from `r`. */
export function readWhoAmIResponse(r: JuteReader): WhoAmIResponse {
  return { clientInfo: r.readVector(readClientInfo, CLIENT_INFO_MIN_SIZE) };
}
