/**
 * Parsers for the text ZooKeeper's own tools print, so tests can compare zkts with them fact by fact:
 * TxnLogToolkit (`zkTxnLogToolkit.sh -d FILE`) and SnapshotFormatter (`zkSnapShotToolkit.sh FILE`). Also runs
 * them (with the testkit's java and jars) for the live comparisons.
 */
import { execFileSync } from 'node:child_process';

import { javaRuntime } from '@zkts/testkit';

export const TXN_LOG_TOOLKIT = 'org.apache.zookeeper.server.persistence.TxnLogToolkit';
export const SNAPSHOT_FORMATTER = 'org.apache.zookeeper.server.SnapshotFormatter';

/** Runs one of ZooKeeper's tools; stdout only (its logging goes to stderr). */
export function runJavaTool(main: string, args: readonly string[]): string {
  const { java, classpath } = javaRuntime();
  return execFileSync(java, ['-cp', classpath, main, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TZ: 'UTC' } });
}

export interface JavaTxn {
  session: bigint;
  cxid: number;
  zxid: bigint;
  /** TraceFormatter.op2String: 'create2', 'createTtl', 'deleteContainer', … */
  op: string;
  /** The path TxnLogToolkit shows for single-path transactions (not for multi/closeSession/error/createSession). */
  path: string | undefined;
  /** Everything after the op (may span lines). */
  text: string;
}

const TXN_LINE = /^(.*?) session 0x([0-9a-f]+) cxid 0x([0-9a-f]+) zxid 0x([0-9a-f]+) (\S+) ?(.*)$/;
const FIRST_FIELD_PATH = new Set(['create', 'create2', 'createTtl', 'createContainer', 'setData']);
const QUOTED_PATH = new Set(['delete', 'deleteContainer', 'setACL']);

export function parseTxnLogToolkit(output: string): { txns: JavaTxn[]; count: number | undefined } {
  const txns: JavaTxn[] = [];
  let count: number | undefined;
  for (const line of output.split('\n')) {
    const match = TXN_LINE.exec(line);
    if (match !== null) {
      const [, , session, cxid, zxid, op, text] = match as unknown as [string, string, string, string, string, string, string];
      txns.push({ session: BigInt(`0x${session}`), cxid: Number.parseInt(cxid, 16), zxid: BigInt(`0x${zxid}`), op, path: undefined, text });
      continue;
    }
    const eof = /^EOF reached after (\d+) txns\./.exec(line);
    if (eof !== null) count = Number(eof[1]);
    else if (txns.length > 0 && count === undefined) (txns[txns.length - 1] as JavaTxn).text += `\n${line}`;
  }
  for (const txn of txns) {
    if (FIRST_FIELD_PATH.has(txn.op)) txn.path = txn.text.slice(0, txn.text.indexOf(','));
    else if (QUOTED_PATH.has(txn.op)) txn.path = /^'([^,\n]*)/.exec(txn.text)?.[1];
  }
  return { txns, count };
}

export interface JavaNode {
  path: string;
  czxid: bigint;
  mzxid: bigint;
  pzxid: bigint;
  cversion: number;
  dataVersion: number;
  aclVersion: number;
  ephemeralOwner: bigint;
  dataLength: number;
}

export interface JavaSnapshot {
  count: number;
  nodes: JavaNode[];
  sessions: { id: bigint; timeout: number; ephemeralCount: number }[];
}

export function parseSnapshotFormatter(output: string): JavaSnapshot {
  const count = Number(/ZNode Details \(count=(\d+)\)/.exec(output)?.[1] ?? Number.NaN);
  const nodes: JavaNode[] = [];
  const [tree = '', sessionPart = ''] = output.split('Session Details');
  for (const block of tree.split('\n----\n').slice(1).filter((b) => b.trim() !== '')) {
    const lines = block.split('\n');
    const field = (name: string): string => {
      const line = lines.find((l) => l.trim().startsWith(`${name} =`));
      if (line === undefined) throw new Error(`no ${name} in ${block}`);
      return line.slice(line.indexOf('=') + 1).trim();
    };
    nodes.push({
      path: lines[0] ?? '',
      czxid: BigInt(field('cZxid')),
      mzxid: BigInt(field('mZxid')),
      pzxid: BigInt(field('pZxid')),
      cversion: Number(field('cversion')),
      dataVersion: Number(field('dataVersion')),
      aclVersion: Number(field('aclVersion')),
      ephemeralOwner: BigInt.asIntN(64, BigInt(field('ephemeralOwner'))),
      dataLength: Number(field('dataLength')),
    });
  }
  const sessions = [...sessionPart.matchAll(/^(0x[0-9a-f]+), (\d+), (\d+)$/gm)].map((m) => ({
    id: BigInt(m[1] as string),
    timeout: Number(m[2]),
    ephemeralCount: Number(m[3]),
  }));
  return { count, nodes, sessions };
}
