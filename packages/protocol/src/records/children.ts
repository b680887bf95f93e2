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

export interface GetChildrenRequest {
  path: string | null;
  watch: boolean;
}

export function writeGetChildrenRequest(w: JuteWriter, v: GetChildrenRequest): void {
  w.writeString(v.path);
  w.writeBool(v.watch);
}

export function readGetChildrenRequest(r: JuteReader): GetChildrenRequest {
  const path = r.readString();
  return { path, watch: r.readBool() };
}

export interface GetChildrenResponse {
  children: (string | null)[] | null;
}

export function writeGetChildrenResponse(w: JuteWriter, v: GetChildrenResponse): void {
  writeStrings(w, v.children);
}

export function readGetChildrenResponse(r: JuteReader): GetChildrenResponse {
  return { children: readStrings(r) };
}

export interface GetChildren2Request {
  path: string | null;
  watch: boolean;
}

export function writeGetChildren2Request(w: JuteWriter, v: GetChildren2Request): void {
  w.writeString(v.path);
  w.writeBool(v.watch);
}

export function readGetChildren2Request(r: JuteReader): GetChildren2Request {
  const path = r.readString();
  return { path, watch: r.readBool() };
}

export interface GetChildren2Response {
  children: (string | null)[] | null;
  stat: Stat;
}

export function writeGetChildren2Response(w: JuteWriter, v: GetChildren2Response): void {
  writeStrings(w, v.children);
  writeStat(w, v.stat);
}

export function readGetChildren2Response(r: JuteReader): GetChildren2Response {
  const children = readStrings(r);
  return { children, stat: readStat(r) };
}

export interface GetAllChildrenNumberRequest {
  path: string | null;
}

export function writeGetAllChildrenNumberRequest(w: JuteWriter, v: GetAllChildrenNumberRequest): void {
  w.writeString(v.path);
}

export function readGetAllChildrenNumberRequest(r: JuteReader): GetAllChildrenNumberRequest {
  return { path: r.readString() };
}

export interface GetAllChildrenNumberResponse {
  totalNumber: number;
}

export function writeGetAllChildrenNumberResponse(w: JuteWriter, v: GetAllChildrenNumberResponse): void {
  w.writeInt(v.totalNumber);
}

export function readGetAllChildrenNumberResponse(r: JuteReader): GetAllChildrenNumberResponse {
  return { totalNumber: r.readInt() };
}

export interface GetEphemeralsRequest {
  prefixPath: string | null;
}

export function writeGetEphemeralsRequest(w: JuteWriter, v: GetEphemeralsRequest): void {
  w.writeString(v.prefixPath);
}

export function readGetEphemeralsRequest(r: JuteReader): GetEphemeralsRequest {
  return { prefixPath: r.readString() };
}

export interface GetEphemeralsResponse {
  ephemerals: (string | null)[] | null;
}

export function writeGetEphemeralsResponse(w: JuteWriter, v: GetEphemeralsResponse): void {
  writeStrings(w, v.ephemerals);
}

export function readGetEphemeralsResponse(r: JuteReader): GetEphemeralsResponse {
  return { ephemerals: readStrings(r) };
}

export interface GetMaxChildrenRequest {
  path: string | null;
}

export function writeGetMaxChildrenRequest(w: JuteWriter, v: GetMaxChildrenRequest): void {
  w.writeString(v.path);
}

export function readGetMaxChildrenRequest(r: JuteReader): GetMaxChildrenRequest {
  return { path: r.readString() };
}

export interface GetMaxChildrenResponse {
  max: number;
}

export function writeGetMaxChildrenResponse(w: JuteWriter, v: GetMaxChildrenResponse): void {
  w.writeInt(v.max);
}

export function readGetMaxChildrenResponse(r: JuteReader): GetMaxChildrenResponse {
  return { max: r.readInt() };
}

export interface SetMaxChildrenRequest {
  path: string | null;
  max: number;
}

export function writeSetMaxChildrenRequest(w: JuteWriter, v: SetMaxChildrenRequest): void {
  w.writeString(v.path);
  w.writeInt(v.max);
}

export function readSetMaxChildrenRequest(r: JuteReader): SetMaxChildrenRequest {
  const path = r.readString();
  return { path, max: r.readInt() };
}
