/**
 * Data records shared by the requests and responses (zookeeper.jute, module org.apache.zookeeper.data).
 *
 *   class Id            { ustring scheme; ustring id; }
 *   class ACL           { int perms; Id id; }
 *   class Stat          { long czxid; long mzxid; long ctime; long mtime; int version; int cversion;
 *                         int aversion; long ephemeralOwner; int dataLength; int numChildren; long pzxid; }
 *   class StatPersisted { long czxid; long mzxid; long ctime; long mtime; int version; int cversion;
 *                         int aversion; long ephemeralOwner; long pzxid; }
 *   class ClientInfo    { ustring authScheme; ustring user; }
 *
 * ctime/mtime are milliseconds since the epoch; a TTL node's ephemeralOwner starts with byte 0xFF and is not a
 * session id.
 */
import { longMemo, type JuteReader } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';

/** The `Id` record of zookeeper.jute, field for field (see this file's header). */
export interface Id {
  scheme: string | null;
  id: string | null;
}

/** Writes `v` as a `Id`. */
export function writeId(w: JuteWriter, v: Id): void {
  w.writeString(v.scheme);
  w.writeString(v.id);
}

/** Reads a `Id` from `r`. */
export function readId(r: JuteReader): Id {
  return { scheme: r.readString(), id: r.readString() };
}

/** The `ACL` record of zookeeper.jute, field for field (see this file's header). */
export interface ACL {
  perms: number;
  id: Id;
}

/** Writes `v` as a `ACL`. */
export function writeACL(w: JuteWriter, v: ACL): void {
  w.writeInt(v.perms);
  writeId(w, v.id);
}

/** Reads a `ACL` from `r`. */
export function readACL(r: JuteReader): ACL {
  const perms = r.readInt();
  return { perms, id: readId(r) };
}

/** Smallest encoding of an ACL (int + two empty/null strings): bounds hostile vector counts. */
export const ACL_MIN_SIZE = 12;

/** Writes `v` as a `ACLs`. */
export function writeACLs(w: JuteWriter, v: readonly ACL[] | null): void {
  w.writeVector(v, writeACL);
}

/** Reads a `ACLs` from `r`. */
export function readACLs(r: JuteReader): ACL[] | null {
  return r.readVector(readACL, ACL_MIN_SIZE);
}

/** The `Stat` record of zookeeper.jute, field for field (see this file's header). */
export interface Stat {
  czxid: bigint;
  mzxid: bigint;
  ctime: bigint;
  mtime: bigint;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: bigint;
  dataLength: number;
  numChildren: number;
  pzxid: bigint;
}

/** Bytes of an encoded Stat. */
export const STAT_SIZE = 68;

/** Writes `v` as a `Stat`. */
export function writeStat(w: JuteWriter, v: Stat): void {
  w.writeLong(v.czxid);
  w.writeLong(v.mzxid);
  w.writeLong(v.ctime);
  w.writeLong(v.mtime);
  w.writeInt(v.version);
  w.writeInt(v.cversion);
  w.writeInt(v.aversion);
  w.writeLong(v.ephemeralOwner);
  w.writeInt(v.dataLength);
  w.writeInt(v.numChildren);
  w.writeLong(v.pzxid);
}

// One memo per long field: reading the same node again (the common case for hot data and lock directories)
// yields the same six 64-bit values, so readStat allocates no bigint for them.
const czxidMemo = longMemo();
const mzxidMemo = longMemo();
const ctimeMemo = longMemo();
const mtimeMemo = longMemo();
const ownerMemo = longMemo();
const pzxidMemo = longMemo();

/** Reads a `Stat` from `r`. */
export function readStat(r: JuteReader): Stat {
  // Object literal in wire order: property evaluation order is the read order.
  return {
    czxid: r.readLongMemo(czxidMemo),
    mzxid: r.readLongMemo(mzxidMemo),
    ctime: r.readLongMemo(ctimeMemo),
    mtime: r.readLongMemo(mtimeMemo),
    version: r.readInt(),
    cversion: r.readInt(),
    aversion: r.readInt(),
    ephemeralOwner: r.readLongMemo(ownerMemo),
    dataLength: r.readInt(),
    numChildren: r.readInt(),
    pzxid: r.readLongMemo(pzxidMemo),
  };
}

/** The `StatPersisted` record of zookeeper.jute, field for field (see this file's header). */
export interface StatPersisted {
  czxid: bigint;
  mzxid: bigint;
  ctime: bigint;
  mtime: bigint;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: bigint;
  pzxid: bigint;
}

/** Writes `v` as a `StatPersisted`. */
export function writeStatPersisted(w: JuteWriter, v: StatPersisted): void {
  w.writeLong(v.czxid);
  w.writeLong(v.mzxid);
  w.writeLong(v.ctime);
  w.writeLong(v.mtime);
  w.writeInt(v.version);
  w.writeInt(v.cversion);
  w.writeInt(v.aversion);
  w.writeLong(v.ephemeralOwner);
  w.writeLong(v.pzxid);
}

/** Reads a `StatPersisted` from `r`. */
export function readStatPersisted(r: JuteReader): StatPersisted {
  return {
    czxid: r.readLong(),
    mzxid: r.readLong(),
    ctime: r.readLong(),
    mtime: r.readLong(),
    version: r.readInt(),
    cversion: r.readInt(),
    aversion: r.readInt(),
    ephemeralOwner: r.readLong(),
    pzxid: r.readLong(),
  };
}

/** The `ClientInfo` record of zookeeper.jute, field for field (see this file's header). */
export interface ClientInfo {
  authScheme: string | null;
  user: string | null;
}

/** Writes `v` as a `ClientInfo`. */
export function writeClientInfo(w: JuteWriter, v: ClientInfo): void {
  w.writeString(v.authScheme);
  w.writeString(v.user);
}

/** Reads a `ClientInfo` from `r`. */
export function readClientInfo(r: JuteReader): ClientInfo {
  return { authScheme: r.readString(), user: r.readString() };
}

/** Vectors of strings (children, ephemerals, watch lists): each element is at least its 4-byte length. */
export function writeStrings(w: JuteWriter, v: readonly (string | null)[] | null): void {
  w.writeVector(v, writeStringElement);
}

/** Reads a `Strings` from `r`. */
export function readStrings(r: JuteReader): (string | null)[] | null {
  return r.readStringVector();
}

function writeStringElement(w: JuteWriter, e: string | null): void {
  w.writeString(e);
}
