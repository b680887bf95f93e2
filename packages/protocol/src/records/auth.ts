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

export interface AuthPacket {
  type: number;
  scheme: string | null;
  auth: Uint8Array | null;
}

export function writeAuthPacket(w: JuteWriter, v: AuthPacket): void {
  w.writeInt(v.type);
  w.writeString(v.scheme);
  w.writeBuffer(v.auth);
}

export function readAuthPacket(r: JuteReader): AuthPacket {
  const type = r.readInt();
  const scheme = r.readString();
  return { type, scheme, auth: r.readBuffer() };
}

export interface GetSASLRequest {
  token: Uint8Array | null;
}

export function writeGetSASLRequest(w: JuteWriter, v: GetSASLRequest): void {
  w.writeBuffer(v.token);
}

export function readGetSASLRequest(r: JuteReader): GetSASLRequest {
  return { token: r.readBuffer() };
}

export interface SetSASLRequest {
  token: Uint8Array | null;
}

export function writeSetSASLRequest(w: JuteWriter, v: SetSASLRequest): void {
  w.writeBuffer(v.token);
}

export function readSetSASLRequest(r: JuteReader): SetSASLRequest {
  return { token: r.readBuffer() };
}

export interface SetSASLResponse {
  token: Uint8Array | null;
}

export function writeSetSASLResponse(w: JuteWriter, v: SetSASLResponse): void {
  w.writeBuffer(v.token);
}

export function readSetSASLResponse(r: JuteReader): SetSASLResponse {
  return { token: r.readBuffer() };
}

export interface WhoAmIResponse {
  clientInfo: ClientInfo[] | null;
}

/** Smallest ClientInfo: two null strings. */
const CLIENT_INFO_MIN_SIZE = 8;

export function writeWhoAmIResponse(w: JuteWriter, v: WhoAmIResponse): void {
  w.writeVector(v.clientInfo, writeClientInfo);
}

export function readWhoAmIResponse(r: JuteReader): WhoAmIResponse {
  return { clientInfo: r.readVector(readClientInfo, CLIENT_INFO_MIN_SIZE) };
}
