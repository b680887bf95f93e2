/**
 * Watches (zookeeper.jute, module org.apache.zookeeper.proto).
 *
 *   class WatcherEvent         { int type; int state; ustring path; }   notification, xid -1, zxid -1
 *   class SetWatches           { long relativeZxid; vector<ustring> dataWatches; vector<ustring> existWatches;
 *                                vector<ustring> childWatches; }        setWatches (101), no response body
 *   class SetWatches2          { long relativeZxid; vector<ustring> dataWatches; vector<ustring> existWatches;
 *                                vector<ustring> childWatches; vector<ustring> persistentWatches;
 *                                vector<ustring> persistentRecursiveWatches; }   setWatches2 (105)
 *   class AddWatchRequest      { ustring path; int mode; }              addWatch (106) → ErrorResponse{err=0}
 *   class CheckWatchesRequest  { ustring path; int type; }              checkWatches (17), no body
 *   class RemoveWatchesRequest { ustring path; int type; }              removeWatches (18), no body
 *
 * type/state/mode use EventType, KeeperState, WatcherType and AddWatchMode (constants.ts). Java's
 * `removeWatches(path, watcher, …)` sends checkWatches (17); `removeAllWatches` sends removeWatches (18).
 */
import type { JuteReader } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';
import { readStrings, writeStrings } from './data.js';

/** The `WatcherEvent` record of zookeeper.jute, field for field (see this file's header). */
export interface WatcherEvent {
  type: number;
  state: number;
  path: string | null;
}

/** Writes `v` as a `WatcherEvent`. */
export function writeWatcherEvent(w: JuteWriter, v: WatcherEvent): void {
  w.writeInt(v.type);
  w.writeInt(v.state);
  w.writeString(v.path);
}

/** Reads a `WatcherEvent` from `r`. */
export function readWatcherEvent(r: JuteReader): WatcherEvent {
  const type = r.readInt();
  const state = r.readInt();
  return { type, state, path: r.readString() };
}

/** The `SetWatches` record of zookeeper.jute, field for field (see this file's header). */
export interface SetWatches {
  relativeZxid: bigint;
  dataWatches: (string | null)[] | null;
  existWatches: (string | null)[] | null;
  childWatches: (string | null)[] | null;
}

/** Writes `v` as a `SetWatches`. */
export function writeSetWatches(w: JuteWriter, v: SetWatches): void {
  w.writeLong(v.relativeZxid);
  writeStrings(w, v.dataWatches);
  writeStrings(w, v.existWatches);
  writeStrings(w, v.childWatches);
}

/** Reads a `SetWatches` from `r`. */
export function readSetWatches(r: JuteReader): SetWatches {
  const relativeZxid = r.readLong();
  const dataWatches = readStrings(r);
  const existWatches = readStrings(r);
  return { relativeZxid, dataWatches, existWatches, childWatches: readStrings(r) };
}

/** The `SetWatches2` record of zookeeper.jute, field for field (see this file's header). */
export interface SetWatches2 {
  relativeZxid: bigint;
  dataWatches: (string | null)[] | null;
  existWatches: (string | null)[] | null;
  childWatches: (string | null)[] | null;
  persistentWatches: (string | null)[] | null;
  persistentRecursiveWatches: (string | null)[] | null;
}

/** Writes `v` as a `SetWatches2`. */
export function writeSetWatches2(w: JuteWriter, v: SetWatches2): void {
  writeSetWatches(w, v);
  writeStrings(w, v.persistentWatches);
  writeStrings(w, v.persistentRecursiveWatches);
}

/** Reads a `SetWatches2` from `r`. */
export function readSetWatches2(r: JuteReader): SetWatches2 {
  const base = readSetWatches(r);
  const persistentWatches = readStrings(r);
  return {
    relativeZxid: base.relativeZxid,
    dataWatches: base.dataWatches,
    existWatches: base.existWatches,
    childWatches: base.childWatches,
    persistentWatches,
    persistentRecursiveWatches: readStrings(r),
  };
}

/** The `AddWatchRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface AddWatchRequest {
  path: string | null;
  mode: number;
}

/** Writes `v` as a `AddWatchRequest`. */
export function writeAddWatchRequest(w: JuteWriter, v: AddWatchRequest): void {
  w.writeString(v.path);
  w.writeInt(v.mode);
}

/** Reads a `AddWatchRequest` from `r`. */
export function readAddWatchRequest(r: JuteReader): AddWatchRequest {
  const path = r.readString();
  return { path, mode: r.readInt() };
}

/** The `CheckWatchesRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface CheckWatchesRequest {
  path: string | null;
  type: number;
}

/** Writes `v` as a `CheckWatchesRequest`. */
export function writeCheckWatchesRequest(w: JuteWriter, v: CheckWatchesRequest): void {
  w.writeString(v.path);
  w.writeInt(v.type);
}

/** Reads a `CheckWatchesRequest` from `r`. */
export function readCheckWatchesRequest(r: JuteReader): CheckWatchesRequest {
  const path = r.readString();
  return { path, type: r.readInt() };
}

/** The `RemoveWatchesRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface RemoveWatchesRequest {
  path: string | null;
  type: number;
}

/** Writes `v` as a `RemoveWatchesRequest`. */
export function writeRemoveWatchesRequest(w: JuteWriter, v: RemoveWatchesRequest): void {
  w.writeString(v.path);
  w.writeInt(v.type);
}

/** Reads a `RemoveWatchesRequest` from `r`. */
export function readRemoveWatchesRequest(r: JuteReader): RemoveWatchesRequest {
  const path = r.readString();
  return { path, type: r.readInt() };
}
