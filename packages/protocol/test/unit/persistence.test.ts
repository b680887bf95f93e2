/**
 * The persistence codec against files a real ZooKeeper 3.8 server wrote (test/fixtures/persistence, made by
 * scripts/persistence-fixtures.ts together with the output of ZooKeeper's TxnLogToolkit/SnapshotFormatter on
 * them): every file decodes without a problem, re-encodes to the same bytes, and agrees with the Java tools
 * transaction by transaction and node by node. Records a 3.8 server never writes are checked as vectors.
 */
import { readdirSync, readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { DataFileError, ProtocolError } from '../../src/errors/errors.js';
import { JuteReader } from '../../src/codec/jute/reader.js';
import { JuteWriter } from '../../src/codec/jute/writer.js';
import { opName } from '../../src/codec/records/constants.js';
import * as persistence from '../../src/codec/persistence/index.js';
import {
  adler32,
  decodeTxnEntry,
  encodeSnapshot,
  encodeTxnLog,
  endsWithSnapshotSeal,
  ephemeralOwnerKind,
  readSnapshot,
  readTxnLog,
  txnPath,
  txnPaths,
  writeTxnEntry,
  type TxnEntry,
} from '../../src/codec/persistence/index.js';
import { parseSnapshotFormatter, parseTxnLogToolkit } from '../support/java-tools.js';

const DIR = new URL('../fixtures/persistence/', import.meta.url);
const files = readdirSync(DIR);
const read = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, DIR)));
const text = (name: string): string => readFileSync(new URL(name, DIR), 'utf8');
const logs = files.filter((f) => /^log\.[0-9a-f]+$/.test(f));
const snapshots = files.filter((f) => /^snapshot\.[0-9a-f]+$/.test(f));

describe('persistence fixtures from a real server', () => {
  it('has logs and snapshots to test', () => {
    expect(logs.length).toBeGreaterThanOrEqual(2);
    expect(snapshots.length).toBeGreaterThanOrEqual(2);
  });

  it.each(logs)('%s decodes cleanly, agrees with TxnLogToolkit and re-encodes byte for byte', (name) => {
    const bytes = read(name);
    const log = readTxnLog(bytes, { file: name });
    expect(log.problems).toEqual([]);
    expect(log.header).toEqual({ magic: 0x5a4b4c47, version: 2, dbid: 0n });
    expect(log.end.kind).toBe('preallocated');
    const java = parseTxnLogToolkit(text(`${name}.java.txt`));
    expect(log.records).toHaveLength(java.count ?? -1);
    log.records.forEach((record, i) => {
      const entry = record.entry as TxnEntry;
      const theirs = java.txns[i];
      expect(record.checksumOk).toBe(true);
      expect({ zxid: entry.header.zxid, session: entry.header.clientId, cxid: entry.header.cxid, op: opName(entry.header.type).toLowerCase() }).toEqual({
        zxid: theirs?.zxid,
        session: theirs?.session,
        cxid: theirs?.cxid,
        op: theirs?.op.toLowerCase(),
      });
      if (theirs?.path !== undefined) expect(txnPath(entry)).toBe(theirs.path);
    });
    // Log files are named after their first zxid.
    expect(log.records[0]?.entry?.header.zxid).toBe(BigInt(`0x${name.slice(4)}`));
    const again = encodeTxnLog({ header: log.header, entries: log.records.map((r) => r.entry as TxnEntry), size: bytes.byteLength });
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
  });

  it('decodes every transaction type the workload made, with the values the server chose', () => {
    const entries = logs.flatMap((name) => readTxnLog(read(name)).records.map((r) => r.entry as TxnEntry));
    const kinds = new Set(entries.map((e) => `${opName(e.header.type)}:${e.txn?.kind ?? 'none'}`));
    for (const kind of ['createSession:createSession', 'create2:create', 'createTTL:createTTL', 'createContainer:createContainer', 'setData:setData', 'setACL:setACL', 'multi:multi', 'error:error', 'delete:delete', 'deleteContainer:delete', 'closeSession:closeSession']) {
      expect(kinds).toContain(kind);
    }
    const seq = entries.find((e) => e.txn?.kind === 'create' && e.txn.path?.startsWith('/app/seq-'));
    expect(seq?.txn).toMatchObject({ path: '/app/seq-0000000001', ephemeral: false });
    const failedMulti = entries.find((e) => e.txn?.kind === 'multi' && e.txn.txns?.some((s) => s.txn?.kind === 'error'));
    // The log keeps the ops before the failure as they were (the apply step turns them into no-ops), the failed
    // op's error, and RUNTIMEINCONSISTENCY for the ops after it.
    expect(failedMulti?.txn?.kind === 'multi' && failedMulti.txn.txns?.map((s) => s.txn)).toEqual([
      expect.objectContaining({ kind: 'create', path: '/app/m2' }),
      { kind: 'error', err: -101 },
      { kind: 'error', err: -2 },
    ]);
    const okMulti = entries.find((e) => e.txn?.kind === 'multi' && e !== failedMulti);
    expect(okMulti && txnPaths(okMulti.txn)).toEqual(['/app/m1', '/app/m1', '/app', '/app/m1']);
    const expired = entries.find((e) => e.txn?.kind === 'closeSession' && e.txn.paths2Delete?.includes('/app/doomed'));
    expect(expired?.txn).toEqual({ kind: 'closeSession', paths2Delete: ['/app/doomed'] });
    const reaped = entries.filter((e) => opName(e.header.type) === 'deleteContainer');
    // The reaper's order within one pass is the server's; compare as a set.
    expect(reaped.map((e) => [e.header.clientId, txnPath(e)]).sort()).toEqual([
      [0n, '/app/box'],
      [0n, '/app/ttl-short'],
    ]);
    expect(entries.find((e) => e.txn?.kind === 'createTTL')?.txn).toMatchObject({ path: '/app/ttl-long', ttl: 3_600_000n });
  });

  it.each(snapshots)('%s decodes cleanly, agrees with SnapshotFormatter and re-encodes byte for byte', (name) => {
    const bytes = read(name);
    const snap = readSnapshot(bytes, { file: name });
    expect(snap.problems).toEqual([]);
    expect(snap.complete).toBe(true);
    expect(snap.seal?.ok).toBe(true);
    expect(snap.digest?.seal?.ok).toBe(true);
    const java = parseSnapshotFormatter(text(`${name}.java.txt`));
    // DataTree counts the root twice (it is in its node map as "" and as "/"), SnapshotFormatter prints it once.
    expect(java.count).toBe(snap.nodes.length + 1);
    const ours = snap.nodes.map((n) => ({
      path: n.path === '' ? '/' : n.path,
      czxid: n.stat.czxid,
      mzxid: n.stat.mzxid,
      pzxid: n.stat.pzxid,
      cversion: n.stat.cversion,
      dataVersion: n.stat.version,
      aclVersion: n.stat.aversion,
      ephemeralOwner: n.stat.ephemeralOwner,
      dataLength: n.data?.byteLength ?? 0,
    }));
    // SnapshotFormatter prints the tree it rebuilt, in hash-set order: compare as sets of nodes.
    const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    expect([...ours].sort(byPath)).toEqual([...java.nodes].sort(byPath));
    const ephemeralCounts = snap.sessions.map((s) => ({
      id: s.id,
      timeout: s.timeout,
      ephemeralCount: snap.nodes.filter((n) => n.stat.ephemeralOwner === s.id).length,
    }));
    expect(ephemeralCounts).toEqual(java.sessions);
    expect(Buffer.from(encodeSnapshot(snap)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('tells ephemeral, TTL and persistent owners apart', () => {
    const snap = readSnapshot(read(snapshots[snapshots.length - 1] as string));
    const owner = (path: string): unknown => ephemeralOwnerKind(snap.nodes.find((n) => n.path === path)?.stat.ephemeralOwner ?? -1n);
    expect(owner('/app/ttl-long')).toEqual({ kind: 'ttl', ttl: 3_600_000n });
    expect(owner('/app')).toEqual({ kind: 'persistent' });
    expect(owner('/app/held')).toEqual({ kind: 'ephemeral', session: snap.sessions[0]?.id });
    expect(ephemeralOwnerKind(BigInt.asIntN(64, 0x8000000000000000n))).toEqual({ kind: 'container' });
  });
});

describe('txn records as ZooKeeper\'s Jute classes serialize them (txn-records.json, TxnRecordVectors.java)', () => {
  const vectors = JSON.parse(text('txn-records.json')) as { record: string; hex: string }[];
  const path = '/app/\u00e9t\u00e9/\u{1f512}-0000000007';

  it('covers every txn record', () => {
    expect(vectors.map((v) => v.record).sort()).toEqual(
      ['CheckVersionTxn', 'CloseSessionTxn', 'CreateContainerTxn', 'CreateSessionTxn', 'CreateTTLTxn', 'CreateTxn', 'CreateTxnV0', 'DeleteTxn', 'ErrorTxn', 'FileHeader', 'MultiTxn', 'SetACLTxn', 'SetDataTxn', 'SetMaxChildrenTxn', 'TxnDigest', 'TxnHeader'].sort(),
    );
  });

  it.each(vectors.filter((v) => v.record !== 'MultiTxn'))('$record decodes and re-encodes to the same bytes', ({ record, hex }) => {
    const codec = persistence as unknown as Record<string, (x: unknown, v?: unknown) => unknown>;
    const read = codec[`read${record}`];
    const write = codec[`write${record}`];
    if (read === undefined || write === undefined) throw new Error(`no codec for ${record}`);
    const bytes = new Uint8Array(Buffer.from(hex, 'hex'));
    const r = new JuteReader(bytes);
    const value = read(r) as Record<string, unknown>;
    expect(r.remaining).toBe(0);
    if ('path' in value) expect(value['path']).toBe(path);
    const w = new JuteWriter(64, { stringEncoding: 'java' });
    write(w, value);
    expect(Buffer.from(w.toBytes()).toString('hex')).toBe(hex);
  });

  it('MultiTxn: sub-transactions decoded by type, re-encoded byte for byte', () => {
    const hex = vectors.find((v) => v.record === 'MultiTxn')?.hex ?? '';
    const header = vectors.find((v) => v.record === 'TxnHeader')?.hex ?? '';
    const bytes = new Uint8Array(Buffer.from(header.slice(0, -8) + '0000000e' + hex, 'hex'));
    const entry = decodeTxnEntry(bytes);
    expect(entry.txn?.kind === 'multi' && entry.txn.txns?.map((s) => s.txn?.kind)).toEqual(['create', 'check', 'error']);
    const w = new JuteWriter(64, { stringEncoding: 'java' });
    writeTxnEntry(w, entry);
    expect(Buffer.from(w.toBytes()).equals(Buffer.from(bytes))).toBe(true);
  });

  it('values: a V0 create is ephemeral without parentCVersion; SetMaxChildrenTxn carries its max', () => {
    const v = (name: string): JuteReader => new JuteReader(new Uint8Array(Buffer.from(vectors.find((x) => x.record === name)?.hex ?? '', 'hex')));
    expect(persistence.readCreateTxnV0(v('CreateTxnV0'))).toMatchObject({ kind: 'createV0', ephemeral: true, acl: [{ perms: 31 }, { perms: 1, id: { scheme: 'digest', id: 'alice:X/8=' } }] });
    expect(persistence.readSetMaxChildrenTxn(v('SetMaxChildrenTxn'))).toEqual({ kind: 'setMaxChildren', path, max: 100 });
    expect(persistence.readCreateTTLTxn(v('CreateTTLTxn'))).toMatchObject({ data: null, parentCVersion: 4, ttl: 3_600_000n });
    expect(persistence.readTxnHeader(v('TxnHeader'))).toEqual({ clientId: 0x100000951490002n, cxid: 7, zxid: 0x200000013n, time: 1763896463371n, type: 15 });
  });
});

describe('records a 3.8 server does not write', () => {
  const header = { clientId: 0x1234n, cxid: 7, zxid: 0x100000002n, time: 1_700_000_000_000n, type: 1 };
  const encode = (entry: TxnEntry): Uint8Array => {
    const w = new JuteWriter(256, { stringEncoding: 'java' });
    writeTxnEntry(w, entry);
    return w.toBytes();
  };

  it('reads an old CreateTxnV0 (no parentCVersion) as such, and round-trips it', () => {
    const entry: TxnEntry = { header, txn: { kind: 'createV0', path: '/old', data: new Uint8Array([1]), acl: [], ephemeral: true }, digest: null, trailing: null };
    const bytes = encode(entry);
    expect(decodeTxnEntry(bytes)).toEqual(entry);
  });

  it('reads a closeSession with no body (before CloseSessionTxn), and keeps unknown multi sub-types raw', () => {
    const close: TxnEntry = { header: { ...header, type: -11 }, txn: null, digest: null, trailing: null };
    expect(decodeTxnEntry(encode(close))).toEqual(close);
    const multi: TxnEntry = {
      header: { ...header, type: 14 },
      txn: {
        kind: 'multi',
        txns: [
          { type: 13, txn: { kind: 'check', path: '/a', version: 3 }, data: null },
          { type: 99, txn: null, data: new Uint8Array([9, 9]) },
        ],
      },
      digest: { version: 2, treeDigest: 42n },
      trailing: null,
    };
    const decoded = decodeTxnEntry(encode(multi));
    expect(decoded.txn?.kind === 'multi' && decoded.txn.txns?.map((s) => [s.type, s.txn])).toEqual([
      [13, { kind: 'check', path: '/a', version: 3 }],
      [99, null],
    ]);
    expect(Buffer.from(encode(decoded)).equals(Buffer.from(encode(multi)))).toBe(true);
  });

  it('keeps bytes after the digest, and refuses unknown txn types with an offset', () => {
    const entry: TxnEntry = { header: { ...header, type: 2 }, txn: { kind: 'delete', path: '/x' }, digest: { version: 2, treeDigest: 1n }, trailing: new Uint8Array([7]) };
    expect(decodeTxnEntry(encode(entry))).toEqual(entry);
    const bad = encode({ ...entry, header: { ...header, type: 77 } });
    expect(() => decodeTxnEntry(bad)).toThrow(ProtocolError);
    expect(() => decodeTxnEntry(bad)).toThrow(/unknown txn type 77 at offset 28/);
  });

  it('computes Adler32 like java.util.zip.Adler32', () => {
    expect(adler32(new TextEncoder().encode('Wikipedia'))).toBe(0x11e60398);
    expect(adler32(new Uint8Array(0))).toBe(1);
    expect(adler32(new Uint8Array(100_000).fill(0xff))).toBe(0x149a302c);
  });
});

describe('damaged files', () => {
  const name = logs[0] as string;
  const full = read(name);
  const clean = readTxnLog(full);
  const used = clean.end.offset;

  it('a truncated log lists every whole entry and names the cut with its offset', () => {
    for (const record of clean.records.slice(1)) {
      const cut = record.offset + 20;
      const log = readTxnLog(full.subarray(0, cut), { file: name });
      expect(log.records.map((r) => r.offset)).toEqual(clean.records.filter((r) => r.offset < record.offset).map((r) => r.offset));
      expect(log.end).toMatchObject({ kind: 'damaged', offset: record.offset });
      expect(log.problems).toHaveLength(1);
      expect(log.problems[0]).toBeInstanceOf(DataFileError);
      expect(log.problems[0]).toMatchObject({ code: 'FILE_TRUNCATED', offset: record.offset + 8, file: name });
    }
    // Cut exactly between entries: nothing is wrong, the log simply ends.
    expect(readTxnLog(full.subarray(0, used))).toMatchObject({ problems: [], end: { kind: 'eof', offset: used } });
  });

  it('a snapshot ends with its seal only when the server finished writing it', () => {
    for (const snap of snapshots) {
      const bytes = read(snap);
      expect(endsWithSnapshotSeal(bytes), snap).toBe(true);
      // Every cut a crash can leave, down to the empty file the server had only created.
      for (const cut of [0, 9, 16, bytes.length >> 1, bytes.length - 1]) expect(endsWithSnapshotSeal(bytes.subarray(0, cut)), `${snap} cut at ${cut}`).toBe(false);
    }
  });

  it('a bad checksum is named, the entry and everything after it still listed', () => {
    const victim = clean.records[5];
    if (victim === undefined) throw new Error('fixture too small');
    const bytes = full.slice();
    const at = victim.offset + 12 + victim.bytes.byteLength - 13; // inside the digest
    bytes[at] = (bytes[at] ?? 0) ^ 0x40;
    const log = readTxnLog(bytes);
    expect(log.records).toHaveLength(clean.records.length);
    expect(log.records[5]?.checksumOk).toBe(false);
    expect(log.problems.map((p) => [p.code, p.offset])).toEqual([['FILE_BAD_CHECKSUM', victim.offset]]);
    expect(String(log.problems[0]?.message)).toMatch(/checksum 0x[0-9a-f]+ does not match/);
  });

  it('a missing end-of-record marker stops the scan there', () => {
    const victim = clean.records[3];
    if (victim === undefined) throw new Error('fixture too small');
    const bytes = full.slice();
    bytes[victim.offset + 12 + victim.bytes.byteLength] = 0;
    const log = readTxnLog(bytes);
    expect(log.records).toHaveLength(3);
    expect(log.end).toMatchObject({ kind: 'damaged', offset: victim.offset });
    expect(log.problems.map((p) => [p.code, p.offset])).toEqual([['FILE_BAD_END_MARKER', victim.offset + 12 + victim.bytes.byteLength]]);
  });

  it('a zeroed length hides the entries after it — and the non-zero tail says so', () => {
    const victim = clean.records[10];
    if (victim === undefined) throw new Error('fixture too small');
    const bytes = full.slice();
    bytes.fill(0, victim.offset, victim.offset + 12);
    const log = readTxnLog(bytes);
    expect(log.records).toHaveLength(10);
    expect(log.end).toMatchObject({ kind: 'preallocated', offset: victim.offset });
    expect(log.problems.map((p) => p.code)).toEqual(['FILE_BAD_RECORD']);
    expect(log.problems[0]?.offset).toBe(victim.offset + 12);
  });

  it('refuses a snapshot as a log (and a log as a snapshot) at offset 0', () => {
    const snap = read(snapshots[0] as string);
    expect(() => readTxnLog(snap)).toThrow(expect.objectContaining({ code: 'FILE_BAD_MAGIC', offset: 0 }));
    expect(() => readSnapshot(full)).toThrow(expect.objectContaining({ code: 'FILE_BAD_MAGIC', offset: 0 }));
    expect(() => readTxnLog(full.subarray(0, 10))).toThrow(expect.objectContaining({ code: 'FILE_TRUNCATED' }));
  });

  it('a truncated snapshot keeps the nodes before the cut; a flipped byte fails the checksum', () => {
    const snapName = snapshots[snapshots.length - 1] as string;
    const bytes = read(snapName);
    const whole = readSnapshot(bytes);
    const third = whole.nodes[3];
    if (third === undefined) throw new Error('fixture too small');
    const cut = readSnapshot(bytes.subarray(0, third.offset + 10), { file: snapName });
    expect(cut.complete).toBe(false);
    expect(cut.nodes.map((n) => n.path)).toEqual(whole.nodes.slice(0, 3).map((n) => n.path));
    expect(cut.problems.map((p) => p.code)).toEqual(['FILE_TRUNCATED']);
    expect(cut.problems[0]?.offset).toBeGreaterThanOrEqual(third.offset);
    const flipped = bytes.slice();
    const dataAt = third.offset + 4 + third.path.length + 4;
    flipped[dataAt] = (flipped[dataAt] ?? 0) ^ 1;
    const bad = readSnapshot(flipped);
    expect(bad.complete).toBe(true);
    expect(bad.problems.map((p) => [p.code, p.offset])).toEqual([
      ['FILE_BAD_CHECKSUM', whole.seal?.offset],
      ['FILE_BAD_CHECKSUM', whole.digest?.seal?.offset],
    ]);
  });
});
