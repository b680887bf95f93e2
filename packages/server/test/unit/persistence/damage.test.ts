// Damaged dataDirs, handled as ZooKeeper handles them: a torn last log entry (cut or unterminated) is
// ignored; a newest snapshot that is incomplete or fails its checksum is skipped for an older one; a log entry
// with a bad checksum, a log with a bad header, or logs without any snapshot stop the start with a typed
// DataFileError. Files that are not ZooKeeper's are ignored.
import { cpSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@zkts/protocol';
import { DataFileError, readTxnLog } from '@zkts/protocol/codec';
import { startServer } from '@zkts/server';

import { dumpTree, tempDir, type DumpedNode } from './support.js';

const zxidOf = (name: string): bigint => BigInt(`0x${name.slice(name.indexOf('.') + 1)}`);
const byZxid = (a: string, b: string): number => (zxidOf(a) < zxidOf(b) ? -1 : zxidOf(a) > zxidOf(b) ? 1 : 0);

let pristine: string;
/** The tree after each of the last writes: index 0 = all of them. */
let full: DumpedNode[];
let beforeLast: DumpedNode[];

async function dump(dataDir: string): Promise<{ tree: DumpedNode[]; lastZxid: bigint }> {
  await using server = await startServer({ dataDir, preAllocSize: 16 });
  const zk = await connect(server.connectString);
  const tree = await dumpTree(zk);
  await zk.close();
  return { tree: tree.filter((n) => n.path.startsWith('/d')), lastZxid: server.lastZxid };
}

/** A copy of the pristine dataDir without the snapshot written on close (so the logs are replayed). */
function damaged(): { dataDir: string; dir: string; logs: string[]; snaps: string[] } {
  const dataDir = tempDir('damaged');
  cpSync(pristine, dataDir, { recursive: true });
  const dir = join(dataDir, 'version-2');
  const snaps = readdirSync(dir).filter((f) => f.startsWith('snapshot.')).sort(byZxid);
  rmSync(join(dir, snaps.pop() as string));
  return { dataDir, dir, logs: readdirSync(dir).filter((f) => f.startsWith('log.')).sort(byZxid), snaps };
}

beforeAll(async () => {
  pristine = tempDir('pristine');
  const server = await startServer({ dataDir: pristine, snapCount: 8, preAllocSize: 16 });
  const zk = await connect(server.connectString);
  await zk.create('/d', 'root');
  for (let i = 0; i < 10; i++) await zk.create(`/d/n${i}`, `v${i}`);
  beforeLast = (await dumpTree(zk)).filter((n) => n.path.startsWith('/d'));
  await zk.setData('/d', 'last');
  full = (await dumpTree(zk)).filter((n) => n.path.startsWith('/d'));
  await zk.close();
  await server.close();
});

/** The newest log's setData, followed only by the session's closeSession: where the entry starts, its size. */
function lastEntry(dir: string, logs: string[]): { file: string; offset: number; size: number } {
  const file = join(dir, logs[logs.length - 1] as string);
  const records = readTxnLog(new Uint8Array(readFileSync(file))).records;
  const last = records[records.length - 2];
  if (last === undefined) throw new Error('empty log');
  return { file, offset: last.offset, size: 12 + last.bytes.byteLength + 1 };
}

describe('damaged dataDirs', () => {
  it('replays the logs of an intact copy to the same tree', async () => {
    const { dataDir } = damaged();
    expect((await dump(dataDir)).tree).toEqual(full);
  });

  it('ignores a torn last entry: cut short (the file ends inside it)', async () => {
    const { dataDir, dir, logs } = damaged();
    const last = lastEntry(dir, logs);
    truncateSync(last.file, last.offset + 20);
    expect((await dump(dataDir)).tree).toEqual(beforeLast);
  });

  it('ignores a torn last entry: its end marker never written', async () => {
    const { dataDir, dir, logs } = damaged();
    const last = lastEntry(dir, logs);
    const bytes = readFileSync(last.file);
    // Its bytes made it to the file, its end marker and everything after did not.
    bytes.fill(0, last.offset + last.size - 1);
    writeFileSync(last.file, bytes);
    expect((await dump(dataDir)).tree).toEqual(beforeLast);
  });

  it('refuses a log entry whose checksum does not match', async () => {
    const { dataDir, dir, logs } = damaged();
    const last = lastEntry(dir, logs);
    const bytes = readFileSync(last.file);
    bytes[last.offset + 20] = (bytes[last.offset + 20] ?? 0) ^ 0xff;
    writeFileSync(last.file, bytes);
    const err = await startServer({ dataDir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFileError);
    expect((err as DataFileError).code).toBe('FILE_BAD_CHECKSUM');
  });

  it('refuses a log with a bad header', async () => {
    const { dataDir, dir, logs } = damaged();
    const file = join(dir, logs[logs.length - 1] as string);
    const bytes = readFileSync(file);
    bytes[0] = 0x41;
    writeFileSync(file, bytes);
    const err = await startServer({ dataDir }).catch((e: unknown) => e);
    expect((err as DataFileError).code).toBe('FILE_BAD_MAGIC');
  });

  it('skips a newest snapshot that is incomplete or damaged, for an older one and more log', async () => {
    for (const damage of ['truncate', 'flip'] as const) {
      const { dataDir, dir, snaps } = damaged();
      const newest = join(dir, snaps[snaps.length - 1] as string);
      const bytes = readFileSync(newest);
      if (damage === 'truncate') truncateSync(newest, bytes.length - 30);
      else {
        bytes[bytes.length - 40] = (bytes[bytes.length - 40] ?? 0) ^ 0x55;
        writeFileSync(newest, bytes);
      }
      expect((await dump(dataDir)).tree).toEqual(full);
    }
  });

  it('refuses logs without any snapshot, and ignores files that are not ZooKeeper data', async () => {
    const { dataDir, dir, snaps } = damaged();
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    writeFileSync(join(dir, 'log.zz'), 'not a log');
    expect((await dump(dataDir)).tree).toEqual(full);
    for (const s of snaps) rmSync(join(dir, s), { force: true });
    for (const s of readdirSync(dir).filter((f) => f.startsWith('snapshot.'))) rmSync(join(dir, s));
    const err = await startServer({ dataDir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFileError);
    expect(String(err)).toMatch(/no snapshot/);
  });

  it('reads a gzip-compressed snapshot (snapshot.<zxid>.gz)', async () => {
    const { dataDir, dir, snaps } = damaged();
    const newest = join(dir, snaps[snaps.length - 1] as string);
    writeFileSync(`${newest}.gz`, gzipSync(readFileSync(newest)));
    for (const s of snaps) rmSync(join(dir, s));
    expect((await dump(dataDir)).tree).toEqual(full);
  });

  it('starts empty on an empty or missing dataDir and writes snapshot.0', async () => {
    const dataDir = join(tempDir('empty'), 'nested', 'data');
    await using server = await startServer({ dataDir });
    expect(server.lastZxid).toBe(0n);
    expect(readdirSync(join(dataDir, 'version-2'))).toEqual(['snapshot.0']);
  });
});
