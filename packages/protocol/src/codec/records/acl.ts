/**
 * Reading and setting a node's ACL (zookeeper.jute, module org.apache.zookeeper.proto).
 *
 *   class GetACLRequest  { ustring path; }                                                getACL (6)
 *   class GetACLResponse { vector<org.apache.zookeeper.data.ACL> acl; org.apache.zookeeper.data.Stat stat; }
 *   class SetACLRequest  { ustring path; vector<org.apache.zookeeper.data.ACL> acl; int version; }   setACL (7)
 *   class SetACLResponse { org.apache.zookeeper.data.Stat stat; }
 *
 * setACL's version is matched against the node's aversion.
 */
import type { JuteReader } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';
import { readACLs, readStat, writeACLs, writeStat, type ACL, type Stat } from './data.js';

/** The `GetACLRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface GetACLRequest {
  path: string | null;
}

/** Writes `v` as a `GetACLRequest`. */
export function writeGetACLRequest(w: JuteWriter, v: GetACLRequest): void {
  w.writeString(v.path);
}

/** Reads a `GetACLRequest` from `r`. */
export function readGetACLRequest(r: JuteReader): GetACLRequest {
  return { path: r.readString() };
}

/** The `GetACLResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface GetACLResponse {
  acl: ACL[] | null;
  stat: Stat;
}

/** Writes `v` as a `GetACLResponse`. */
export function writeGetACLResponse(w: JuteWriter, v: GetACLResponse): void {
  writeACLs(w, v.acl);
  writeStat(w, v.stat);
}

/** Reads a `GetACLResponse` from `r`. */
export function readGetACLResponse(r: JuteReader): GetACLResponse {
  const acl = readACLs(r);
  return { acl, stat: readStat(r) };
}

/** The `SetACLRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface SetACLRequest {
  path: string | null;
  acl: ACL[] | null;
  version: number;
}

/** Writes `v` as a `SetACLRequest`. */
export function writeSetACLRequest(w: JuteWriter, v: SetACLRequest): void {
  w.writeString(v.path);
  writeACLs(w, v.acl);
  w.writeInt(v.version);
}

/** Reads a `SetACLRequest` from `r`. */
export function readSetACLRequest(r: JuteReader): SetACLRequest {
  const path = r.readString();
  const acl = readACLs(r);
  return { path, acl, version: r.readInt() };
}

/** The `SetACLResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface SetACLResponse {
  stat: Stat;
}

/** Writes `v` as a `SetACLResponse`. */
export function writeSetACLResponse(w: JuteWriter, v: SetACLResponse): void {
  writeStat(w, v.stat);
}

/** Reads a `SetACLResponse` from `r`. */
export function readSetACLResponse(r: JuteReader): SetACLResponse {
  return { stat: readStat(r) };
}
