/**
 * ZooKeeper's tree digest (DigestCalculator, version 2, summed as NodeHashMapImpl's AdHash): per node the
 * CRC-32 of its path ("" for the root), its data and 60 bytes of its persisted Stat; the sum of all of them
 * modulo 2^64, nodes under `/zookeeper/` left out. Written into snapshots so ZooKeeper can check the tree it
 * loads against it.
 */
import { crc32 } from 'node:zlib';

import type { DataNode } from '../tree/data-tree.js';

/** DigestCalculator.DIGEST_VERSION. */
export const DIGEST_VERSION = 2;

const statBytes = new Uint8Array(60);
const statView = new DataView(statBytes.buffer);
const encoder = new TextEncoder();

/** DigestCalculator.calculateDigest (0 for paths under /zookeeper/). */
export function nodeDigest(path: string, node: DataNode): bigint {
  if (path.startsWith('/zookeeper/')) return 0n;
  const s = node.stat;
  statView.setBigInt64(0, s.czxid);
  statView.setBigInt64(8, s.mzxid);
  statView.setBigInt64(16, s.pzxid);
  statView.setBigInt64(24, s.ctime);
  statView.setBigInt64(32, s.mtime);
  statView.setInt32(40, s.version);
  statView.setInt32(44, s.cversion);
  statView.setInt32(48, s.aversion);
  statView.setBigInt64(52, s.ephemeralOwner);
  let crc = crc32(encoder.encode(path === '/' ? '' : path));
  if (node.data !== null) crc = crc32(node.data, crc);
  return BigInt(crc32(statBytes, crc));
}

