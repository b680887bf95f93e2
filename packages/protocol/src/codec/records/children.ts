/**
 * Listing children and counting nodes (zookeeper.jute, module org.apache.zookeeper.proto).
 *
 *   class GetChildrenRequest           { ustring path; boolean watch; }         getChildren (8)
 *   class GetChildrenResponse          { vector<ustring> children; }
 *   class GetChildren2Request          { ustring path; boolean watch; }         getChildren2 (12)
 *   class GetChildren2Response         { vector<ustring> children; org.apache.zookeeper.data.Stat stat; }
 *   class GetAllChildrenNumberRequest  { ustring path; }                        getAllChildrenNumber (104)
 *   class GetAllChildrenNumberResponse { int totalNumber; }
 *   class GetEphemeralsRequest         { ustring prefixPath; }                  getEphemerals (103)
 *   class GetEphemeralsResponse        { vector<ustring> ephemerals; }
 *   class GetMaxChildrenRequest        { ustring path; }                        no opcode (old quota API)
 *   class GetMaxChildrenResponse       { int max; }
 *   class SetMaxChildrenRequest        { ustring path; int max; }
 *
 * Children are names relative to the parent; ephemerals are full server paths.
 */
import type { JuteReader } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';
import { readStat, readStrings, writeStat, writeStrings, type Stat } from './data.js';

/** The `GetChildrenRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface GetChildrenRequest {
  path: string | null;
  watch: boolean;
}

/** Writes `v` as a `GetChildrenRequest`. */
export function writeGetChildrenRequest(w: JuteWriter, v: GetChildrenRequest): void {
  w.writeString(v.path);
  w.writeBool(v.watch);
}

/** Reads a `GetChildrenRequest` from `r`. */
export function readGetChildrenRequest(r: JuteReader): GetChildrenRequest {
  const path = r.readString();
  return { path, watch: r.readBool() };
}

/** The `GetChildrenResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface GetChildrenResponse {
  children: (string | null)[] | null;
}

/** Writes `v` as a `GetChildrenResponse`. */
export function writeGetChildrenResponse(w: JuteWriter, v: GetChildrenResponse): void {
  writeStrings(w, v.children);
}

/** Reads a `GetChildrenResponse` from `r`. */
export function readGetChildrenResponse(r: JuteReader): GetChildrenResponse {
  return { children: readStrings(r) };
}

/** The `GetChildren2Request` record of zookeeper.jute, field for field (see this file's header). */
export interface GetChildren2Request {
  path: string | null;
  watch: boolean;
}

/** Writes `v` as a `GetChildren2Request`. */
export function writeGetChildren2Request(w: JuteWriter, v: GetChildren2Request): void {
  w.writeString(v.path);
  w.writeBool(v.watch);
}

/** Reads a `GetChildren2Request` from `r`. */
export function readGetChildren2Request(r: JuteReader): GetChildren2Request {
  const path = r.readString();
  return { path, watch: r.readBool() };
}

/** The `GetChildren2Response` record of zookeeper.jute, field for field (see this file's header). */
export interface GetChildren2Response {
  children: (string | null)[] | null;
  stat: Stat;
}

/** Writes `v` as a `GetChildren2Response`. */
export function writeGetChildren2Response(w: JuteWriter, v: GetChildren2Response): void {
  writeStrings(w, v.children);
  writeStat(w, v.stat);
}

/** Reads a `GetChildren2Response` from `r`. */
export function readGetChildren2Response(r: JuteReader): GetChildren2Response {
  const children = readStrings(r);
  return { children, stat: readStat(r) };
}

/** The `GetAllChildrenNumberRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface GetAllChildrenNumberRequest {
  path: string | null;
}

/** Writes `v` as a `GetAllChildrenNumberRequest`. */
export function writeGetAllChildrenNumberRequest(w: JuteWriter, v: GetAllChildrenNumberRequest): void {
  w.writeString(v.path);
}

/** Reads a `GetAllChildrenNumberRequest` from `r`. */
export function readGetAllChildrenNumberRequest(r: JuteReader): GetAllChildrenNumberRequest {
  return { path: r.readString() };
}

/** The `GetAllChildrenNumberResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface GetAllChildrenNumberResponse {
  totalNumber: number;
}

/** Writes `v` as a `GetAllChildrenNumberResponse`. */
export function writeGetAllChildrenNumberResponse(w: JuteWriter, v: GetAllChildrenNumberResponse): void {
  w.writeInt(v.totalNumber);
}

/** Reads a `GetAllChildrenNumberResponse` from `r`. */
export function readGetAllChildrenNumberResponse(r: JuteReader): GetAllChildrenNumberResponse {
  return { totalNumber: r.readInt() };
}

/** The `GetEphemeralsRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface GetEphemeralsRequest {
  prefixPath: string | null;
}

/** Writes `v` as a `GetEphemeralsRequest`. */
export function writeGetEphemeralsRequest(w: JuteWriter, v: GetEphemeralsRequest): void {
  w.writeString(v.prefixPath);
}

/** Reads a `GetEphemeralsRequest` from `r`. */
export function readGetEphemeralsRequest(r: JuteReader): GetEphemeralsRequest {
  return { prefixPath: r.readString() };
}

/** The `GetEphemeralsResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface GetEphemeralsResponse {
  ephemerals: (string | null)[] | null;
}

/** Writes `v` as a `GetEphemeralsResponse`. */
export function writeGetEphemeralsResponse(w: JuteWriter, v: GetEphemeralsResponse): void {
  writeStrings(w, v.ephemerals);
}

/** Reads a `GetEphemeralsResponse` from `r`. */
export function readGetEphemeralsResponse(r: JuteReader): GetEphemeralsResponse {
  return { ephemerals: readStrings(r) };
}

/** The `GetMaxChildrenRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface GetMaxChildrenRequest {
  path: string | null;
}

/** Writes `v` as a `GetMaxChildrenRequest`. */
export function writeGetMaxChildrenRequest(w: JuteWriter, v: GetMaxChildrenRequest): void {
  w.writeString(v.path);
}

/** Reads a `GetMaxChildrenRequest` from `r`. */
export function readGetMaxChildrenRequest(r: JuteReader): GetMaxChildrenRequest {
  return { path: r.readString() };
}

/** The `GetMaxChildrenResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface GetMaxChildrenResponse {
  max: number;
}

/** Writes `v` as a `GetMaxChildrenResponse`. */
export function writeGetMaxChildrenResponse(w: JuteWriter, v: GetMaxChildrenResponse): void {
  w.writeInt(v.max);
}

/** Reads a `GetMaxChildrenResponse` from `r`. */
export function readGetMaxChildrenResponse(r: JuteReader): GetMaxChildrenResponse {
  return { max: r.readInt() };
}

/** The `SetMaxChildrenRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface SetMaxChildrenRequest {
  path: string | null;
  max: number;
}

/** Writes `v` as a `SetMaxChildrenRequest`. */
export function writeSetMaxChildrenRequest(w: JuteWriter, v: SetMaxChildrenRequest): void {
  w.writeString(v.path);
  w.writeInt(v.max);
}

/** Reads a `SetMaxChildrenRequest` from `r`. */
export function readSetMaxChildrenRequest(r: JuteReader): SetMaxChildrenRequest {
  const path = r.readString();
  return { path, max: r.readInt() };
}
