// The writers on a temp dir: log files named after their first zxid, ZooKeeper's header, padding in
// preAllocSize blocks (FilePadding), entries read back by the codec; rolling; the snapshot's sections and ACL
// cache keys; session passwords as java.util.Random makes them.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OpCode, readSnapshot, readTxnLog, type TxnEntry } from '@zkts/protocol/codec';

import { scanLogFile } from '../../../src/persistence/log-reader.js';
import { zooKeeperPassword } from '../../../src/persistence/session-password.js';
import { snapshotContents, writeSnapshotFile } from '../../../src/persistence/snapshot-writer.js';
import { txnEntryOf } from '../../../src/persistence/txn-entry.js';
import { paddedSize, TxnLogWriter } from '../../../src/persistence/txn-log-writer.js';
import { OPEN_ACL } from '../../../src/tree/acl.js';
import { DataTree } from '../../../src/tree/data-tree.js';
import { ttlOwner } from '../../../src/tree/ephemeral-type.js';
import { tempDir } from './support.js';

function entry(zxid: bigint, path: string): TxnEntry {
  return {
    header: { clientId: 7n, cxid: Number(zxid), zxid, time: 1000n + zxid, type: OpCode.create },
    txn: { kind: 'create', path, data: new Uint8Array([1, 2]), acl: [...OPEN_ACL], ephemeral: false, parentCVersion: 1 },
    digest: null,
    trailing: null,
  };
}

describe('TxnLogWriter', () => {
  it('pads as FilePadding.calculateFileSizeWithPadding', () => {
    expect(paddedSize(16, 16, 16384)).toBe(16400);
    expect(paddedSize(100, 16400, 16384)).toBe(16400);
    expect(paddedSize(12400, 16400, 16384)).toBe(32784);
    expect(paddedSize(40000, 16400, 16384)).toBe(49152);
    expect(paddedSize(16, 16, 0)).toBe(16);
  });

  it('writes files ZooKeeper-shaped, and rolls', () => {
    const dir = tempDir('writer');
    const log = new TxnLogWriter(dir, true, 16384);
    for (let z = 1n; z <= 3n; z++) log.append(entry(z, `/n${z}`));
    expect(log.count).toBe(3);
    log.roll();
    log.append(entry(4n, '/n4'));
    log.roll();
    expect(readdirSync(dir).sort()).toEqual(['log.1', 'log.4']);
    const bytes = new Uint8Array(readFileSync(join(dir, 'log.1')));
    expect(statSync(join(dir, 'log.1')).size).toBe(16 + 16384);
    const parsed = readTxnLog(bytes);
    expect(parsed.header).toEqual({ magic: 0x5a4b4c47, version: 2, dbid: 0n });
    expect(parsed.problems).toEqual([]);
    expect(parsed.end.kind).toBe('preallocated');
    expect(parsed.records.map((r) => r.entry?.header.zxid)).toEqual([1n, 2n, 3n]);
    expect(parsed.records.every((r) => r.checksumOk)).toBe(true);
    expect(parsed.records[1]?.entry).toEqual(entry(2n, '/n2'));
  });

  it('grows a file past its preallocation in blocks', () => {
    const dir = tempDir('grow');
    const log = new TxnLogWriter(dir, false, 1024);
    for (let z = 1n; z <= 100n; z++) log.append(entry(z, `/node-with-a-longer-name-${z}`));
    log.roll();
    const size = statSync(join(dir, 'log.1')).size;
    expect((size - 16) % 1024).toBe(0);
    const parsed = readTxnLog(new Uint8Array(readFileSync(join(dir, 'log.1'))));
    expect(parsed.records).toHaveLength(100);
    expect(parsed.problems).toEqual([]);
  });
});

describe('scanLogFile', () => {
  it('reads entries across its windows, one larger than a window included, and stops at the zeros', () => {
    const dir = tempDir('windows');
    const log = new TxnLogWriter(dir, false, 64 * 1024);
    const big = entry(1n, '/big');
    if (big.txn?.kind === 'create') big.txn.data = new Uint8Array(1536 * 1024).fill(7);
    log.append(big);
    for (let z = 2n; z <= 30_000n; z++) log.append(entry(z, `/node-${z}`));
    log.roll();
    const scan = scanLogFile(join(dir, 'log.1'), 'log.1');
    expect(scan.problems).toEqual([]);
    expect(scan.end.kind).toBe('preallocated');
    expect(scan.records).toHaveLength(30_000);
    expect(scan.records[29_999]?.entry?.header.zxid).toBe(30_000n);
    expect(scan.records.map((r) => r.offset)).toEqual(readTxnLog(new Uint8Array(readFileSync(join(dir, 'log.1')))).records.map((r) => r.offset));
  });
});

describe('txn entries of the server', () => {
  it('logs a lone check as ErrorTxn(0), a reaper delete as deleteContainer, a TTL create with its ttl', () => {
    const tree = new DataTree(true);
    const origin = { sessionId: 5n, cxid: 3, zxid: 9n, time: 1n, timeout: 4000 };
    expect(txnEntryOf({ type: 'check', path: '/' }, origin, tree).header.type).toBe(OpCode.error);
    expect(txnEntryOf({ type: 'delete', path: '/x' }, { ...origin, sessionId: 0n }, tree).header.type).toBe(OpCode.deleteContainer);
    expect(txnEntryOf({ type: 'delete', path: '/x' }, origin, tree).header.type).toBe(OpCode.delete);
    const ttl = txnEntryOf({ type: 'create', op: 'createTTL', path: '/t', data: null, acl: OPEN_ACL, owner: ttlOwner(60_000n), parentCVersion: 1 }, origin, tree);
    expect(ttl.header.type).toBe(OpCode.createTTL);
    expect(ttl.txn).toMatchObject({ kind: 'createTTL', ttl: 60_000n });
    const session = txnEntryOf({ type: 'createSession' }, origin, tree);
    expect(session.txn).toEqual({ kind: 'createSession', timeOut: 4000 });
    expect(session.header).toEqual({ clientId: 5n, cxid: 3, zxid: 9n, time: 1n, type: OpCode.createSession });
  });
});

describe('snapshot writer', () => {
  it('writes sessions, the ACL cache and the tree, parents first', () => {
    const tree = new DataTree(true);
    const acl = [{ perms: 1, id: { scheme: 'world', id: 'anyone' } }];
    tree.createNode('/a', new Uint8Array([65]), OPEN_ACL, 0n, 1, 1n, 10n);
    tree.createNode('/a/b', null, acl, 0n, 1, 2n, 11n);
    tree.createNode('/c', null, [...acl], 5n, 2, 3n, 12n);
    tree.lastZxid = 3n;
    const dir = tempDir('snap');
    const path = writeSnapshotFile(dir, 3n, snapshotContents(tree, [{ id: 5n, timeout: 6000 }]), false);
    expect(readdirSync(dir)).toEqual(['snapshot.3']);
    const snap = readSnapshot(new Uint8Array(readFileSync(path)));
    expect(snap.problems).toEqual([]);
    expect(snap.complete).toBe(true);
    expect(snap.sessions).toEqual([{ id: 5n, timeout: 6000 }]);
    const byPath = new Map(snap.nodes.map((n) => [n.path, n]));
    expect(byPath.get('')?.acl).toBe(-1n);
    expect(byPath.get('/zookeeper')?.acl).toBe(-1n);
    // Two keys: the READ ACL of /zookeeper/config, /a/b and /c (equal lists share one), the open ACL of /a.
    expect(snap.acls).toHaveLength(2);
    expect(byPath.get('/a/b')?.acl).toBe(byPath.get('/c')?.acl);
    expect(byPath.get('/a/b')?.acl).toBe(byPath.get('/zookeeper/config')?.acl);
    expect(byPath.get('/a')?.acl).not.toBe(-1n);
    expect(byPath.get('/c')?.stat.ephemeralOwner).toBe(5n);
    expect(byPath.get('/a/b')?.data).toBeNull();
    const order = snap.nodes.map((n) => n.path);
    expect(order.indexOf('/a')).toBeLessThan(order.indexOf('/a/b'));
  });
});

describe('session passwords', () => {
  it('are the bytes java.util.Random(id ^ 0xB3415C00) gives', () => {
    // Printed by Java: new Random(id ^ 0XB3415C00L).nextBytes(new byte[16]).
    expect(Buffer.from(zooKeeperPassword(72057594037927937n)).toString('hex')).toBe('054cc74a37327db215e702e20c73f005');
    expect(Buffer.from(zooKeeperPassword(-5n)).toString('hex')).toBe('d47144b5e45e45c49c3b7fdcd66257ba');
  });
});
