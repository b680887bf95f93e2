/**
 * Creating nodes (zookeeper.jute, module org.apache.zookeeper.proto).
 *
 *   class CreateRequest    { ustring path; buffer data; vector<org.apache.zookeeper.data.ACL> acl; int flags; }
 *   class CreateTTLRequest { ustring path; buffer data; vector<org.apache.zookeeper.data.ACL> acl; int flags;
 *                            long ttl; }
 *   class CreateResponse   { ustring path; }
 *   class Create2Response  { ustring path; org.apache.zookeeper.data.Stat stat; }
 *
 * CreateRequest serves create (1), create2 (15) and createContainer (19, flags 4); createTTL (21) sends
 * CreateTTLRequest. create answers CreateResponse; create2, createContainer and createTTL answer
 * Create2Response (FinalRequestProcessor always builds Create2Response for a container).
 */
import type { JuteReader } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';
import { readACLs, readStat, writeACLs, writeStat, type ACL, type Stat } from './data.js';

export interface CreateRequest {
  path: string | null;
  data: Uint8Array | null;
  acl: ACL[] | null;
  flags: number;
}

export function writeCreateRequest(w: JuteWriter, v: CreateRequest): void {
  w.writeString(v.path);
  w.writeBuffer(v.data);
  writeACLs(w, v.acl);
  w.writeInt(v.flags);
}

export function readCreateRequest(r: JuteReader): CreateRequest {
  const path = r.readString();
  const data = r.readBuffer();
  const acl = readACLs(r);
  return { path, data, acl, flags: r.readInt() };
}

export interface CreateTTLRequest {
  path: string | null;
  data: Uint8Array | null;
  acl: ACL[] | null;
  flags: number;
  ttl: bigint;
}

export function writeCreateTTLRequest(w: JuteWriter, v: CreateTTLRequest): void {
  writeCreateRequest(w, v);
  w.writeLong(v.ttl);
}

export function readCreateTTLRequest(r: JuteReader): CreateTTLRequest {
  const base = readCreateRequest(r);
  return { path: base.path, data: base.data, acl: base.acl, flags: base.flags, ttl: r.readLong() };
}

export interface CreateResponse {
  path: string | null;
}

export function writeCreateResponse(w: JuteWriter, v: CreateResponse): void {
  w.writeString(v.path);
}

export function readCreateResponse(r: JuteReader): CreateResponse {
  return { path: r.readString() };
}

export interface Create2Response {
  path: string | null;
  stat: Stat;
}

export function writeCreate2Response(w: JuteWriter, v: Create2Response): void {
  w.writeString(v.path);
  writeStat(w, v.stat);
}

export function readCreate2Response(r: JuteReader): Create2Response {
  const path = r.readString();
  return { path, stat: readStat(r) };
}
