/**
 * Restoring a server from a dataDir (FileTxnSnapLog.restore): the newest valid snapshot (FileSnap: files
 * `snapshot.<hex>` newest first, a file without its final seal or with a bad checksum skipped, `.gz` inflated),
 * then the logs from the one that covers the snapshot's zxid on, replaying every entry after it. As in
 * ZooKeeper, a log ends at its preallocated zeros or at a torn last entry (ignored), while a checksum that does
 * not match, an entry that does not decode or a bad file header stops the start with a DataFileError; so do log
 * entries without any snapshot.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { DataFileError, endsWithSnapshotSeal, readSnapshot, type Snapshot, type TxnEntry } from '@zkts/protocol/codec';

import type { Logger } from '../options.js';
import type { DataTree } from '../tree/data-tree.js';
import { scanLogFile } from './log-reader.js';
import { loadSnapshot, replayEntry, type SessionTimeouts } from './replay.js';

/** What a restore found. */
export interface Restored {
  /** Session id → timeout of the sessions alive at the last transaction. */
  sessions: SessionTimeouts;
  /** The zxid of the snapshot loaded (-1 when there was none). */
  snapshotZxid: bigint;
  /** Log entries replayed. */
  replayed: number;
}

/** Util.getZxidFromName: `<prefix>.<hex>[.<anything>]`, else undefined. */
export function zxidFromName(name: string, prefix: string): bigint | undefined {
  const parts = name.split('.');
  if (parts.length < 2 || parts[0] !== prefix || !/^[0-9a-fA-F]{1,16}$/.test(parts[1] ?? '')) return undefined;
  return BigInt.asIntN(64, BigInt(`0x${parts[1]}`));
}

function filesOf(dir: string, prefix: string): { name: string; zxid: bigint }[] {
  const out: { name: string; zxid: bigint }[] = [];
  for (const name of readdirSync(dir)) {
    const zxid = zxidFromName(name, prefix);
    if (zxid !== undefined) out.push({ name, zxid });
  }
  return out.sort((a, b) => (a.zxid < b.zxid ? -1 : a.zxid > b.zxid ? 1 : 0));
}

function readSnapshotFile(path: string, name: string): Snapshot | string {
  let bytes: Uint8Array = readFileSync(path);
  if (name.endsWith('.gz')) {
    try {
      bytes = gunzipSync(bytes);
    } catch (err) {
      return `does not inflate: ${(err as Error).message}`;
    }
  } else if (name.endsWith('.snappy')) {
    return 'snappy snapshots are not supported';
  }
  if (!endsWithSnapshotSeal(bytes)) return 'incomplete (no final seal)';
  try {
    const snap = readSnapshot(bytes, { file: name });
    if (!snap.complete || snap.problems.length > 0) return snap.problems.map((p) => p.message).join('; ') || 'incomplete';
    return snap;
  } catch (err) {
    if (err instanceof DataFileError) return err.message;
    throw err;
  }
}

/** Reads a log file's entries; throws where ZooKeeper's FileTxnIterator fails. */
function readLogEntries(path: string, name: string, logger: Logger): TxnEntry[] {
  const log = scanLogFile(path, name);
  for (const problem of log.problems) {
    if (problem.code === 'FILE_BAD_CHECKSUM') throw problem;
  }
  const entries: TxnEntry[] = [];
  for (const record of log.records) {
    if (record.entry === null) {
      throw log.problems.find((p) => p.code === 'FILE_BAD_RECORD') ?? new DataFileError('FILE_BAD_RECORD', 'transaction does not decode', record.offset, { file: name });
    }
    entries.push(record.entry);
  }
  if (log.end.kind === 'damaged') {
    const last = log.problems[log.problems.length - 1];
    // A length out of bounds is an IOException in ZooKeeper (readBuffer); a torn last entry is EOF.
    if (last !== undefined && last.code === 'FILE_BAD_RECORD') throw last;
    logger.warn(`${name}: ignoring a partial transaction at offset ${log.end.offset}`);
  }
  return entries;
}

/** Loads `<version-2 dir>` into `tree`; a missing directory is an empty database. */
export function restore(dir: string, tree: DataTree, logger: Logger): Restored {
  const sessions: SessionTimeouts = new Map();
  if (!existsSync(dir)) return { sessions, snapshotZxid: -1n, replayed: 0 };
  let snapshotZxid = -1n;
  const snaps = filesOf(dir, 'snapshot').reverse();
  const rejected: string[] = [];
  for (const { name, zxid } of snaps) {
    const snap = readSnapshotFile(join(dir, name), name);
    if (typeof snap === 'string') {
      logger.warn(`skipping snapshot ${name}: ${snap}`);
      rejected.push(`${name}: ${snap}`);
      continue;
    }
    loadSnapshot(tree, snap, name);
    for (const s of snap.sessions) sessions.set(s.id, s.timeout);
    snapshotZxid = zxid;
    tree.lastZxid = zxid;
    logger.info(`loaded snapshot ${name}`);
    break;
  }
  const logs = filesOf(dir, 'log');
  if (snapshotZxid === -1n) {
    if (rejected.length > 0) throw new DataFileError('FILE_BAD_RECORD', `no valid snapshot in ${dir} (${rejected.join('; ')})`, 0, { file: dir });
    if (logs.length > 0) throw new DataFileError('FILE_BAD_RECORD', `no snapshot found, but there are log files in ${dir}`, 0, { file: dir });
    return { sessions, snapshotZxid, replayed: 0 };
  }
  // FileTxnLog.getLogFiles: from the last log that starts at or before the snapshot's zxid.
  let first = 0;
  logs.forEach((log, i) => {
    if (log.zxid <= snapshotZxid) first = i;
  });
  let replayed = 0;
  for (const { name } of logs.slice(first)) {
    for (const entry of readLogEntries(join(dir, name), name, logger)) {
      if (entry.header.zxid <= snapshotZxid) continue;
      replayEntry(tree, sessions, entry);
      replayed++;
    }
  }
  return { sessions, snapshotZxid, replayed };
}
