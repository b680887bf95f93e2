/**
 * Reading, writing, deleting and syncing one node (zookeeper.jute, module org.apache.zookeeper.proto).
 *
 *   class DeleteRequest       { ustring path; int version; }                  delete (2), no response body
 *   class ExistsRequest       { ustring path; boolean watch; }                exists (3)
 *   class ExistsResponse      { org.apache.zookeeper.data.Stat stat; }
 *   class GetDataRequest      { ustring path; boolean watch; }                getData (4)
 *   class GetDataResponse     { buffer data; org.apache.zookeeper.data.Stat stat; }
 *   class SetDataRequest      { ustring path; buffer data; int version; }     setData (5)
 *   class SetDataResponse     { org.apache.zookeeper.data.Stat stat; }
 *   class CheckVersionRequest { ustring path; int version; }                  check (13), multi only, no body
 *   class SyncRequest         { ustring path; }                               sync (9)
 *   class SyncResponse        { ustring path; }
 *
 * version -1 matches any version. exists on a missing node answers NONODE with no body (the watch is still set).
 */
import type { JuteReader } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';
import { readStat, writeStat, type Stat } from './data.js';

/** The `DeleteRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface DeleteRequest {
  path: string | null;
  version: number;
}

/** Writes `v` as a `DeleteRequest`. */
export function writeDeleteRequest(w: JuteWriter, v: DeleteRequest): void {
  w.writeString(v.path);
  w.writeInt(v.version);
}

/** Reads a `DeleteRequest` from `r`. */
export function readDeleteRequest(r: JuteReader): DeleteRequest {
  const path = r.readString();
  return { path, version: r.readInt() };
}

/** The `ExistsRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface ExistsRequest {
  path: string | null;
  watch: boolean;
}

/** Writes `v` as a `ExistsRequest`. */
export function writeExistsRequest(w: JuteWriter, v: ExistsRequest): void {
  w.writeString(v.path);
  w.writeBool(v.watch);
}

/** Reads a `ExistsRequest` from `r`. */
export function readExistsRequest(r: JuteReader): ExistsRequest {
  const path = r.readString();
  return { path, watch: r.readBool() };
}

/** The `ExistsResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface ExistsResponse {
  stat: Stat;
}

/** Writes `v` as a `ExistsResponse`. */
export function writeExistsResponse(w: JuteWriter, v: ExistsResponse): void {
  writeStat(w, v.stat);
}

/** Reads a `ExistsResponse` from `r`. */
export function readExistsResponse(r: JuteReader): ExistsResponse {
  return { stat: readStat(r) };
}

/** The `GetDataRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface GetDataRequest {
  path: string | null;
  watch: boolean;
}

/** Writes `v` as a `GetDataRequest`. */
export function writeGetDataRequest(w: JuteWriter, v: GetDataRequest): void {
  w.writeString(v.path);
  w.writeBool(v.watch);
}

/** Reads a `GetDataRequest` from `r`. */
export function readGetDataRequest(r: JuteReader): GetDataRequest {
  const path = r.readString();
  return { path, watch: r.readBool() };
}

/** The `GetDataResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface GetDataResponse {
  data: Uint8Array | null;
  stat: Stat;
}

/** Writes `v` as a `GetDataResponse`. */
export function writeGetDataResponse(w: JuteWriter, v: GetDataResponse): void {
  w.writeBuffer(v.data);
  writeStat(w, v.stat);
}

/** `data` is a view into the frame: copy it to keep it past the frame's lifetime. */
export function readGetDataResponse(r: JuteReader): GetDataResponse {
  const data = r.readBuffer();
  return { data, stat: readStat(r) };
}

/** The `SetDataRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface SetDataRequest {
  path: string | null;
  data: Uint8Array | null;
  version: number;
}

/** Writes `v` as a `SetDataRequest`. */
export function writeSetDataRequest(w: JuteWriter, v: SetDataRequest): void {
  w.writeString(v.path);
  w.writeBuffer(v.data);
  w.writeInt(v.version);
}

/** Reads a `SetDataRequest` from `r`. */
export function readSetDataRequest(r: JuteReader): SetDataRequest {
  const path = r.readString();
  const data = r.readBuffer();
  return { path, data, version: r.readInt() };
}

/** The `SetDataResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface SetDataResponse {
  stat: Stat;
}

/** Writes `v` as a `SetDataResponse`. */
export function writeSetDataResponse(w: JuteWriter, v: SetDataResponse): void {
  writeStat(w, v.stat);
}

/** Reads a `SetDataResponse` from `r`. */
export function readSetDataResponse(r: JuteReader): SetDataResponse {
  return { stat: readStat(r) };
}

/** The `CheckVersionRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface CheckVersionRequest {
  path: string | null;
  version: number;
}

/** Writes `v` as a `CheckVersionRequest`. */
export function writeCheckVersionRequest(w: JuteWriter, v: CheckVersionRequest): void {
  w.writeString(v.path);
  w.writeInt(v.version);
}

/** Reads a `CheckVersionRequest` from `r`. */
export function readCheckVersionRequest(r: JuteReader): CheckVersionRequest {
  const path = r.readString();
  return { path, version: r.readInt() };
}

/** The `SyncRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface SyncRequest {
  path: string | null;
}

/** Writes `v` as a `SyncRequest`. */
export function writeSyncRequest(w: JuteWriter, v: SyncRequest): void {
  w.writeString(v.path);
}

/** Reads a `SyncRequest` from `r`. */
export function readSyncRequest(r: JuteReader): SyncRequest {
  return { path: r.readString() };
}

/** The `SyncResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface SyncResponse {
  path: string | null;
}

/** Writes `v` as a `SyncResponse`. */
export function writeSyncResponse(w: JuteWriter, v: SyncResponse): void {
  w.writeString(v.path);
}

/** Reads a `SyncResponse` from `r`. */
export function readSyncResponse(r: JuteReader): SyncResponse {
  return { path: r.readString() };
}
