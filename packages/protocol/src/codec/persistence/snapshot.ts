/**
 * ZooKeeper's snapshot file (FileSnap: version-2/snapshot.<hex last zxid>), uncompressed:
 *
 *   FileHeader { int magic = "ZKSN"; int version = 2; long dbid = -1; }
 *   int count; { long id; int timeout; } * count                 sessions (SerializeUtils.serializeSnapshot)
 *   int map;   { long long; vector<ACL> acls; } * map             the ACL cache (ReferenceCountedACLCache)
 *   { ustring path; DataNode node; } *  until path == "/"         the tree, parents first, root path ""
 *      DataNode { buffer data; long acl; StatPersisted statpersisted; }    acl: a cache key, -1 = open ACL
 *   long val; ustring "/"                                         seal: Adler32 of every byte before `val`
 *   [ZxidDigest { long zxid; int digestVersion; long digest; }    3.6+: the tree digest (before version 2 the
 *    long val; ustring "/"]                                       digest was a hex ustring); sealed again
 *
 * Sessions and ACLs come out of hash maps and children out of hash sets, so the order is the server's and
 * is kept as read: decode → encode is byte-exact. The reader returns everything up to the first damage and
 * names the damage (DataFileError with its file offset); only a bad file header throws. `.gz` snapshots are
 * the caller's to inflate (this module stays free of node:zlib); snappy ones are refused as FILE_UNSUPPORTED.
 */
import { DataFileError, ProtocolError, type DataFileErrorCode } from '../../errors/errors.js';
import { JuteReader } from '../jute/reader.js';
import { JuteWriter } from '../jute/writer.js';
import { ACL_MIN_SIZE, readACL, readStatPersisted, writeACLs, writeStatPersisted, type ACL, type StatPersisted } from '../records/data.js';
import { adler32 } from './adler32.js';
import { fileOption, readCheckedFileHeader, SNAP_MAGIC, writeFileHeader, type FileHeader } from './file-header.js';

/** The `SnapshotSession` record, field names as in ZooKeeper. */
export interface SnapshotSession {
  id: bigint;
  /** ms */
  timeout: number;
}

/** The `SnapshotAcl` record, field names as in ZooKeeper. */
export interface SnapshotAcl {
  /** The key nodes refer to. */
  id: bigint;
  acl: ACL[];
}

/** ReferenceCountedACLCache.OPEN_UNSAFE_ACL_ID: world:anyone with every permission, not in the cache. */
export const OPEN_ACL_ID = -1n;

/** The `SnapshotNode` record, field names as in ZooKeeper. */
export interface SnapshotNode {
  /** "" for the root. */
  path: string;
  data: Uint8Array | null;
  /** Key into the ACL cache (OPEN_ACL_ID for the open ACL). */
  acl: bigint;
  stat: StatPersisted;
  /** File offset of the node's path. */
  offset: number;
}

/** The `SnapshotSeal` record, field names as in ZooKeeper. */
export interface SnapshotSeal {
  offset: number;
  /** The value stored in the file. */
  checksum: bigint;
  /** Adler32 of the bytes before it. */
  computed: number;
  ok: boolean;
}

/** The `ZxidDigest` record, field names as in ZooKeeper. */
export interface ZxidDigest {
  zxid: bigint;
  digestVersion: number;
  /** A long from digest version 2 on; before that a hex string (null allowed). */
  digest: bigint | string | null;
}

/** The `Snapshot` record, field names as in ZooKeeper. */
export interface Snapshot {
  header: FileHeader;
  sessions: SnapshotSession[];
  acls: SnapshotAcl[];
  nodes: SnapshotNode[];
  seal: SnapshotSeal | null;
  digest: (ZxidDigest & { offset: number; seal: SnapshotSeal | null }) | null;
  /** Bytes after the last section (a newer format's addition); null when none. */
  trailing: Uint8Array | null;
  problems: DataFileError[];
  /** Every section was read to its end (there may still be checksum problems). */
  complete: boolean;
}

/** The `SnapshotReadOptions` record, field names as in ZooKeeper. */
export interface SnapshotReadOptions {
  file?: string;
  /** Bound for one node's data (default 16 MiB; ZooKeeper's jute.maxbuffer is 1 MiB). */
  maxData?: number;
}

const SESSION_SIZE = 12;
const ACL_ENTRY_MIN_SIZE = 12;
/** A node: path length, data length, acl, StatPersisted (60). */
const NODE_MIN_SIZE = 4 + 4 + 8 + 60;
const SEAL_PATH = '/';

/** gzip's magic; snappy-java's stream header starts with 0x82 "SNAPPY". */
function compression(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  if (bytes[0] === 0x82 && bytes[1] === 0x53 && bytes[2] === 0x4e && bytes[3] === 0x41) return 'snappy';
  return undefined;
}

function classify(error: ProtocolError): DataFileErrorCode {
  return /^truncated|bytes left/.test(error.message) ? 'FILE_TRUNCATED' : 'FILE_BAD_RECORD';
}

/** Reads one `Snapshot` record (Jute), as ZooKeeper writes it. */
export function readSnapshot(bytes: Uint8Array, options: SnapshotReadOptions = {}): Snapshot {
  const opt = fileOption(options.file);
  const packed = compression(bytes);
  if (packed !== undefined) {
    throw new DataFileError('FILE_UNSUPPORTED', `${packed}-compressed snapshot: inflate it first (zookeeper.snapshot.compression.method)`, 0, opt);
  }
  const r = new JuteReader(bytes, { maxLength: options.maxData ?? 16 * 1024 * 1024 });
  const header = readCheckedFileHeader(r, SNAP_MAGIC, 'snapshot', options.file);
  const snap: Snapshot = { header, sessions: [], acls: [], nodes: [], seal: null, digest: null, trailing: null, problems: [], complete: false };
  let section = 'sessions';
  try {
    const sessions = readCount(r, SESSION_SIZE, 'session');
    for (let i = 0; i < sessions; i++) snap.sessions.push({ id: r.readLong(), timeout: r.readInt() });
    section = 'ACL cache';
    const acls = readCount(r, ACL_ENTRY_MIN_SIZE, 'ACL cache entry');
    for (let i = 0; i < acls; i++) {
      const id = r.readLong();
      const at = r.offset;
      const acl = r.readVector(readACL, ACL_MIN_SIZE);
      if (acl === null) throw new ProtocolError(`ACL cache entry ${id} has a null ACL list`, at);
      snap.acls.push({ id, acl });
    }
    section = 'tree';
    for (;;) {
      const offset = r.offset;
      const path = r.readRequiredString('node path');
      if (path === SEAL_PATH) break;
      if (r.remaining < NODE_MIN_SIZE - 4) throw new ProtocolError(`truncated node ${JSON.stringify(path)}`, r.offset);
      const data = r.readBuffer();
      const acl = r.readLong();
      snap.nodes.push({ path, data, acl, stat: readStatPersisted(r), offset });
    }
    section = 'checksum';
    snap.seal = readSeal(r, bytes, snap, opt);
    if (r.remaining > 0) {
      section = 'digest';
      const offset = r.offset;
      const zxid = r.readLong();
      const digestVersion = r.readInt();
      const digest = digestVersion < 2 ? r.readString() : r.readLong();
      snap.digest = { zxid, digestVersion, digest, offset, seal: null };
      section = 'digest checksum';
      snap.digest.seal = readSeal(r, bytes, snap, opt);
    }
    if (r.remaining > 0) snap.trailing = bytes.subarray(r.offset);
    snap.complete = true;
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    const offset = error.offset ?? r.offset;
    snap.problems.push(new DataFileError(classify(error), `${section}: ${error.message.replace(/ at offset \d+$/, '')}`, offset, { ...opt, cause: error }));
  }
  checkTree(snap, opt);
  return snap;
}

function readCount(r: JuteReader, elementSize: number, what: string): number {
  const at = r.offset;
  const n = r.readInt();
  if (n < 0) throw new ProtocolError(`negative ${what} count ${n}`, at);
  if (n * elementSize > r.remaining) throw new ProtocolError(`${what} count ${n} exceeds the ${r.remaining} bytes left`, at);
  return n;
}

function readSeal(r: JuteReader, bytes: Uint8Array, snap: Snapshot, opt: { file?: string }): SnapshotSeal {
  const offset = r.offset;
  const computed = adler32(bytes.subarray(0, offset));
  const checksum = r.readLong();
  const pathAt = r.offset;
  const path = r.readString();
  if (path !== SEAL_PATH) throw new ProtocolError(`checksum is followed by ${JSON.stringify(path)}, not "/"`, pathAt);
  const ok = checksum === BigInt(computed);
  if (!ok) {
    snap.problems.push(new DataFileError('FILE_BAD_CHECKSUM', `snapshot checksum 0x${BigInt.asUintN(64, checksum).toString(16)} does not match its bytes (Adler32 0x${computed.toString(16)})`, offset, opt));
  }
  return { offset, checksum, computed, ok };
}

/** What DataTree.deserialize insists on: parents before children, and ACL keys that exist. */
function checkTree(snap: Snapshot, opt: { file?: string }): void {
  const seen = new Set<string>();
  const acls = new Set(snap.acls.map((a) => a.id));
  for (const node of snap.nodes) {
    if (seen.has(node.path)) {
      snap.problems.push(new DataFileError('FILE_BAD_RECORD', `node ${JSON.stringify(node.path)} appears twice`, node.offset, opt));
    }
    const slash = node.path.lastIndexOf('/');
    const parent = node.path.slice(0, Math.max(0, slash));
    if (node.path !== '' && (slash === -1 || !seen.has(parent))) {
      snap.problems.push(new DataFileError('FILE_BAD_RECORD', `node ${JSON.stringify(node.path)} comes before its parent ${JSON.stringify(parent)}`, node.offset, opt));
    }
    if (node.acl !== OPEN_ACL_ID && !acls.has(node.acl)) {
      snap.problems.push(new DataFileError('FILE_BAD_RECORD', `node ${JSON.stringify(node.path)} refers to ACL ${node.acl}, which is not in the ACL cache`, node.offset, opt));
    }
    seen.add(node.path);
  }
}

/** The ACL list a node's key stands for (open ACL for -1; undefined for a key that is not cached). */
export function snapshotAcl(snapshot: Pick<Snapshot, 'acls'>, key: bigint): ACL[] | undefined {
  if (key === OPEN_ACL_ID) return [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];
  return snapshot.acls.find((a) => a.id === key)?.acl;
}

/** The `SnapshotContents` record, field names as in ZooKeeper. */
export interface SnapshotContents {
  header: FileHeader;
  sessions: readonly SnapshotSession[];
  acls: readonly SnapshotAcl[];
  nodes: readonly Pick<SnapshotNode, 'path' | 'data' | 'acl' | 'stat'>[];
  digest: ZxidDigest | null;
  trailing?: Uint8Array | null;
}

function writeSeal(w: JuteWriter): void {
  w.writeLong(BigInt(adler32(w.bytesView())));
  w.writeString(SEAL_PATH);
}

/** A snapshot file, sealed with the checksums the server would write. */
export function encodeSnapshot(contents: SnapshotContents): Uint8Array {
  const w = new JuteWriter(4096, { stringEncoding: 'java' });
  writeFileHeader(w, contents.header);
  w.writeInt(contents.sessions.length);
  for (const s of contents.sessions) w.writeLong(s.id).writeInt(s.timeout);
  w.writeInt(contents.acls.length);
  for (const a of contents.acls) {
    w.writeLong(a.id);
    writeACLs(w, a.acl);
  }
  for (const node of contents.nodes) {
    w.writeString(node.path);
    w.writeBuffer(node.data);
    w.writeLong(node.acl);
    writeStatPersisted(w, node.stat);
  }
  w.writeString(SEAL_PATH);
  writeSeal(w);
  const digest = contents.digest;
  if (digest !== null) {
    w.writeLong(digest.zxid).writeInt(digest.digestVersion);
    if (typeof digest.digest === 'bigint') w.writeLong(digest.digest);
    else w.writeString(digest.digest);
    writeSeal(w);
  }
  if (contents.trailing != null) w.writeRaw(contents.trailing);
  return w.bytesView().slice();
}

/**
 * Whether an uncompressed snapshot file ends as the server finishes one: with a seal's path, the ustring "/"
 * (int 1, then '/'). ZooKeeper (SnapStream.isValidSnapshot) loads only such files, newest first, so a file a
 * crash cut short while the server wrote it is skipped, and so must a reader that wants the server's choice.
 */
export function endsWithSnapshotSeal(bytes: Uint8Array): boolean {
  const n = bytes.byteLength;
  if (n < 10) return false;
  return bytes[n - 5] === 0 && bytes[n - 4] === 0 && bytes[n - 3] === 0 && bytes[n - 2] === 1 && bytes[n - 1] === 0x2f;
}
