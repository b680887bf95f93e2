// A torn last log entry, side by side: ZooKeeper 3.8 and our server, both started on a copy of the same
// dataDir (ours, its newest snapshot removed so the logs are replayed) whose last log entry was cut short,
// ignore that entry and see the same tree.
import { cpSync, readFileSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '@zkts/protocol';
import { readTxnLog } from '@zkts/protocol/codec';
import { startServer } from '@zkts/server';
import { startZooKeeper } from '@zkts/testkit';

import { dumpTree, tempDir } from '../../unit/persistence/support.js';

const zxidOf = (name: string): bigint => BigInt(`0x${name.slice(name.indexOf('.') + 1)}`);
const byZxid = (a: string, b: string): number => (zxidOf(a) < zxidOf(b) ? -1 : zxidOf(a) > zxidOf(b) ? 1 : 0);

async function dumpAt(connectString: string): Promise<string> {
  const zk = await connect(connectString);
  try {
    return JSON.stringify((await dumpTree(zk)).filter((n) => n.path.startsWith('/t')));
  } finally {
    await zk.close();
  }
}

describe('a torn last log entry', () => {
  it('is ignored by ZooKeeper and by our server alike', async () => {
    const dataDir = tempDir('torn');
    const server = await startServer({ dataDir, snapCount: 6, preAllocSize: 16 });
    const zk = await connect(server.connectString);
    await zk.create('/t', 'x');
    for (let i = 0; i < 8; i++) await zk.create(`/t/c${i}`, `${i}`);
    await zk.setData('/t', 'last write');
    await zk.close();
    await server.close();
    const dir = join(dataDir, 'version-2');
    const snaps = readdirSync(dir).filter((f) => f.startsWith('snapshot.')).sort(byZxid);
    rmSync(join(dir, snaps.pop() as string));
    // Cut the newest log inside its second-to-last entry (the setData; the last is the closeSession).
    const log = join(dir, readdirSync(dir).filter((f) => f.startsWith('log.')).sort(byZxid).pop() as string);
    const records = readTxnLog(new Uint8Array(readFileSync(log))).records;
    const torn = records[records.length - 2];
    if (torn === undefined) throw new Error('too few entries');
    truncateSync(log, torn.offset + 30);

    const theirs = await startZooKeeper({ systemProperties: { 'zookeeper.extendedTypesEnabled': true } });
    try {
      await theirs.stop();
      rmSync(join(theirs.dataDir, 'version-2'), { recursive: true, force: true });
      cpSync(dir, join(theirs.dataDir, 'version-2'), { recursive: true });
      await theirs.start();
      const zkTree = await dumpAt(theirs.connectString);
      expect(zkTree).toContain('"data":"x"');
      await using ours = await startServer({ dataDir, preAllocSize: 16 });
      expect(await dumpAt(ours.connectString)).toBe(zkTree);
    } finally {
      await theirs[Symbol.asyncDispose]();
    }
  });
});
