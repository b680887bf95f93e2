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

/** The `CreateRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface CreateRequest {
  path: string | null;
  data: Uint8Array | null;
  acl: ACL[] | null;
  flags: number;
}

/** Writes `v` as a `CreateRequest`. */
export function writeCreateRequest(w: JuteWriter, v: CreateRequest): void {
  w.writeString(v.path);
  w.writeBuffer(v.data);
  writeACLs(w, v.acl);
  w.writeInt(v.flags);
}

/** Reads a `CreateRequest` from `r`. */
export function readCreateRequest(r: JuteReader): CreateRequest {
  const path = r.readString();
  const data = r.readBuffer();
  const acl = readACLs(r);
  return { path, data, acl, flags: r.readInt() };
}

/** The `CreateTTLRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface CreateTTLRequest {
  path: string | null;
  data: Uint8Array | null;
  acl: ACL[] | null;
  flags: number;
  ttl: bigint;
}

/** Writes `v` as a `CreateTTLRequest`. */
export function writeCreateTTLRequest(w: JuteWriter, v: CreateTTLRequest): void {
  writeCreateRequest(w, v);
  w.writeLong(v.ttl);
}

/** Reads a `CreateTTLRequest` from `r`. */
export function readCreateTTLRequest(r: JuteReader): CreateTTLRequest {
  const base = readCreateRequest(r);
  return { path: base.path, data: base.data, acl: base.acl, flags: base.flags, ttl: r.readLong() };
}

/** The `CreateResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface CreateResponse {
  path: string | null;
}

/** Writes `v` as a `CreateResponse`. */
export function writeCreateResponse(w: JuteWriter, v: CreateResponse): void {
  w.writeString(v.path);
}

/** Reads a `CreateResponse` from `r`. */
export function readCreateResponse(r: JuteReader): CreateResponse {
  return { path: r.readString() };
}

/** The `Create2Response` record of zookeeper.jute, field for field (see this file's header). */
export interface Create2Response {
  path: string | null;
  stat: Stat;
}

/** Writes `v` as a `Create2Response`. */
export function writeCreate2Response(w: JuteWriter, v: Create2Response): void {
  w.writeString(v.path);
  writeStat(w, v.stat);
}

/** Reads a `Create2Response` from `r`. */
export function readCreate2Response(r: JuteReader): Create2Response {
  const path = r.readString();
  return { path, stat: readStat(r) };
}
