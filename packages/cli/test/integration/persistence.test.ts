/**
 * `zkts txnlog` and `zkts snapshot` on the files a real ZooKeeper server wrote during a scripted workload
 * (every txn type: sessions opened, closed and expired, create/TTL/container, setData, setACL, multi with and
 * without an error, failed writes, the reaper's deleteContainer), compared fact by fact with ZooKeeper's own
 * TxnLogToolkit and SnapshotFormatter run on the same files; damaged copies; and --follow on the live server.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import { createClient } from '@zkts/protocol';
import { endsWithSnapshotSeal, readTxnLog } from '@zkts/protocol/codec';
import { startZooKeeper } from '@zkts/testkit';
import type { ZooKeeperServer } from '@zkts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseSnapshotFormatter, parseTxnLogToolkit, runJavaTool, SNAPSHOT_FORMATTER, TXN_LOG_TOOLKIT } from '../../../protocol/test/support/java-tools.js';
import { workloadDataDir } from '../../../protocol/test/support/persistence-workload.js';
import type { DataDirFiles, WorkloadResult } from '../../../protocol/test/support/persistence-workload.js';
import { COMMANDS } from '../../src/commands/index.js';
import { jsonLines } from '../support/cli.js';
import { runInProcess, startInProcess } from '../support/run-in-process.js';

let server: ZooKeeperServer;
let files: DataDirFiles;
let result: WorkloadResult;

beforeAll(async () => {
  // snapCount 10: the server rolls its log and snapshots every 5-10 transactions, so the comparison covers
  // many log files and fuzzy snapshots taken while the workload ran, besides the restart's snapshot.
  ({ server, files, result } = await workloadDataDir({ systemProperties: { 'zookeeper.snapCount': 10 } }));
}, 120_000);

afterAll(async () => {
  await server?.[Symbol.asyncDispose]();
});

const hexOf = (decimal: unknown): string => `0x${BigInt(String(decimal)).toString(16)}`;

describe('zkts txnlog / snapshot against TxnLogToolkit / SnapshotFormatter', { timeout: 180_000 }, () => {
  it('txnlog agrees with TxnLogToolkit on every transaction of every log file', async () => {
    const run = await runInProcess(COMMANDS, ['--json', 'txnlog', server.dataDir]);
    expect(run.code, run.stderr).toBe(0);
    const ours = jsonLines(run.stdout);
    const java = files.logs.flatMap((file) => {
      const parsed = parseTxnLogToolkit(runJavaTool(TXN_LOG_TOOLKIT, ['-d', file]));
      expect(parsed.count).toBe(parsed.txns.length);
      return parsed.txns;
    });
    expect(files.logs.length).toBeGreaterThanOrEqual(4);
    console.log(`compared ${java.length} transactions in ${files.logs.length} log files with TxnLogToolkit`);
    expect(java.length).toBeGreaterThanOrEqual(31);
    expect(ours).toHaveLength(java.length);
    ours.forEach((row, i) => {
      const theirs = java[i];
      if (theirs === undefined) throw new Error('missing Java txn');
      const where = `txn ${i}: ${JSON.stringify(row)} vs ${JSON.stringify({ ...theirs, zxid: theirs.zxid.toString(16), session: theirs.session.toString(16) })}`;
      expect(row['zxidHex'], where).toBe(`0x${theirs.zxid.toString(16)}`);
      expect(row['sessionHex'], where).toBe(`0x${theirs.session.toString(16)}`);
      expect(row['cxid'], where).toBe(theirs.cxid);
      expect(String(row['op']).toLowerCase(), where).toBe(theirs.op.toLowerCase());
      if (theirs.path !== undefined) expect(row['path'], where).toBe(theirs.path);
      if (theirs.op === 'multi') {
        // TxnLogToolkit prints each sub-txn as `type:<raw bytes>`: compare the sequence of types.
        const javaOps = theirs.text.split(';').map((part) => part.slice(0, part.indexOf(':')));
        const ourOps = (row['ops'] as string[]).map((op) => op.split(' ')[0]);
        expect(ourOps, where).toEqual(javaOps);
      }
      if (theirs.op === 'closeSession') {
        const deleted = [...theirs.text.matchAll(/'([^,}]*)/g)].map((m) => m[1]);
        expect(row['deleted'], where).toEqual(deleted);
      }
    });
    // Every kind of transaction was there to compare.
    expect(new Set(ours.map((r) => r['op']))).toEqual(
      new Set(['createSession', 'create2', 'createTTL', 'createContainer', 'setData', 'setACL', 'multi', 'error', 'delete', 'deleteContainer', 'closeSession']),
    );
  });

  it('snapshot agrees with SnapshotFormatter on every node (path, Stat, ephemeral owner) and session', async () => {
    let compared = 0;
    let read = 0;
    for (const file of files.snapshots) {
      const run = await runInProcess(COMMANDS, ['--json', 'snapshot', file]);
      let formatted: string;
      try {
        formatted = runJavaTool(SNAPSHOT_FORMATTER, [file]);
      } catch (error) {
        // The workload's SIGKILL can land while the server writes a snapshot (snapCount 10 makes many), and
        // leave it cut short or empty: SnapshotFormatter fails on such a file, and zkts must refuse it too.
        expect(endsWithSnapshotSeal(readFileSync(file)), `${file}: SnapshotFormatter failed on a sealed snapshot: ${String(error)}`).toBe(false);
        expect(run.code, `${file}: ${run.stderr}`).toBe(65);
        console.log(`${basename(file)} was cut short (${statSync(file).size} bytes): both tools refuse it`);
        continue;
      }
      expect(run.code, run.stderr).toBe(0);
      read++;
      const rows = jsonLines(run.stdout);
      const nodes = rows.filter((r) => r['type'] === 'node');
      const java = parseSnapshotFormatter(formatted);
      // SnapshotFormatter walks the tree it rebuilt (hash-set order of children), zkts prints it sorted: the
      // same nodes, compared path by path.
      expect(nodes.map((n) => n['path']).sort()).toEqual(java.nodes.map((n) => n.path).sort());
      const theirsByPath = new Map(java.nodes.map((n) => [n.path, n]));
      for (const node of nodes) {
        const theirs = theirsByPath.get(String(node['path']));
        expect({
          path: node['path'],
          czxid: BigInt(String(node['czxid'])),
          mzxid: BigInt(String(node['mzxid'])),
          pzxid: BigInt(String(node['pzxid'])),
          cversion: node['cversion'],
          dataVersion: node['version'],
          aclVersion: node['aversion'],
          ephemeralOwner: BigInt(String(node['ephemeralOwner'])),
          dataLength: node['dataLength'],
        }).toEqual(theirs);
        compared++;
      }
      const sessions = rows.filter((r) => r['type'] === 'session');
      expect(sessions.map((s) => ({ id: BigInt(hexOf(s['id'])), timeout: s['timeout'], ephemeralCount: (s['ephemerals'] as string[]).length }))).toEqual(java.sessions);
    }
    // The restart snapshot holds the workload's tree: the surviving ephemeral of the holder session, the TTL node.
    const last = jsonLines((await runInProcess(COMMANDS, ['--json', 'snapshot', server.dataDir])).stdout);
    expect(last.find((r) => r['path'] === '/app/held')).toMatchObject({ kind: 'ephemeral', owner: `0x${result.sessions.holder}` });
    expect(last.find((r) => r['path'] === '/app/ttl-long')).toMatchObject({ kind: 'ttl', ttl: 3_600_000 });
    expect(read).toBeGreaterThanOrEqual(3);
    expect(compared).toBeGreaterThanOrEqual(12);
    console.log(`compared ${compared} nodes in ${read} of ${files.snapshots.length} snapshots with SnapshotFormatter`);
  });

  it('a dataDir whose newest snapshots a crash cut short: zkts reads the snapshot ZooKeeper loads', async () => {
    const sealed = files.snapshots.filter((file) => endsWithSnapshotSeal(readFileSync(file)));
    const newest = sealed.at(-1);
    if (newest === undefined) throw new Error('no sealed snapshot');
    // The non-ephemeral nodes under /app that a `zkts snapshot` run printed.
    const appPathsOf = (stdout: string): string[] =>
      jsonLines(stdout).filter((r) => r['kind'] !== 'ephemeral' && String(r['path']).startsWith('/app')).map((r) => String(r['path'])).sort();
    const appPaths = async (snapshotPath: string): Promise<string[]> => appPathsOf((await runInProcess(COMMANDS, ['--json', 'snapshot', snapshotPath])).stdout);
    // The snapshot to fall back to: the newest older one whose tree differs from the newest's.
    const newestPaths = await appPaths(newest);
    let older: string | undefined;
    for (const file of sealed.slice(0, -1).reverse()) {
      const paths = await appPaths(file);
      if (paths.length > 0 && paths.join() !== newestPaths.join()) {
        older = file;
        break;
      }
    }
    if (older === undefined) throw new Error('no older snapshot with a different tree');
    // What a SIGKILL while writing leaves: the newest cut short, and a newer one created and not yet written.
    const dir = join(mkdtempSync(join(tmpdir(), 'zkts-crashed-')), 'version-2');
    mkdirSync(dir);
    copyFileSync(older, join(dir, basename(older)));
    const bytes = readFileSync(newest);
    writeFileSync(join(dir, basename(newest)), bytes.subarray(0, bytes.length >> 1));
    const empty = `snapshot.${(BigInt(`0x${basename(newest).slice('snapshot.'.length)}`) + 1n).toString(16)}`;
    writeFileSync(join(dir, empty), new Uint8Array(0));

    const run = await runInProcess(COMMANDS, ['--json', 'snapshot', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stderr).map((r) => (r['error'] as { code: string }).code)).toEqual(['SNAPSHOT_UNSEALED', 'SNAPSHOT_UNSEALED']);
    const ours = appPathsOf(run.stdout);
    expect(ours).toEqual(await appPaths(older));

    // ZooKeeper started on a copy of the same files serves the tree of the snapshot it loaded (no logs to replay).
    // Ephemeral nodes are left out: their sessions may expire meanwhile. A client's Stat shows TTL nodes and
    // containers with owner 0, as persistent ones.
    // The reaper keeps its default minute, so the short TTL node it would delete stays for the walk.
    const theirs = await startZooKeeper({ backend: 'local', extendedTypesEnabled: true });
    try {
      await theirs.stop();
      rmSync(join(theirs.dataDir, 'version-2'), { recursive: true, force: true });
      cpSync(dir, join(theirs.dataDir, 'version-2'), { recursive: true });
      await theirs.start();
      const client = createClient(theirs.connectString);
      await client.connect();
      try {
        const served: string[] = [];
        const walk = async (path: string): Promise<void> => {
          for (const child of (await client.getChildren(path)).children.sort()) {
            const childPath = `${path}/${child}`;
            const { stat } = await client.getData(childPath);
            if (stat.ephemeralOwner === 0n) served.push(childPath);
            await walk(childPath);
          }
        };
        served.push('/app');
        await walk('/app');
        expect(ours).toEqual(served.sort());
      } finally {
        await client.close();
      }
    } finally {
      await theirs[Symbol.asyncDispose]();
    }
  });

  it('who deleted my node: --path finds the create and the session expiry that took the ephemeral with it', async () => {
    const run = await runInProcess(COMMANDS, ['txnlog', server.dataDir, '--path', '/app/doomed']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`session=0x${result.sessions.expired} cxid=0x1 create2 /app/doomed data="bye" .*ephemeral`));
    expect(lines[1]).toMatch(new RegExp(`session=0x${result.sessions.expired} cxid=0x0 closeSession deleted=\\[/app/doomed\\] \\(session expired: closed by the server\\)`));
    const reaped = await runInProcess(COMMANDS, ['txnlog', server.dataDir, '--op', 'deleteContainer']);
    expect(reaped.stdout).toMatch(/session=0x0 cxid=0x0 deleteContainer \/app\/box \(deleted by the server/);
    const bySession = jsonLines((await runInProcess(COMMANDS, ['--json', 'txnlog', server.dataDir, '--session', `0x${result.sessions.short}`])).stdout);
    expect(bySession.map((r) => r['op'])).toEqual(['createSession', 'create2', 'closeSession']);
  });

  it('damaged copies: every valid transaction is printed and the damage named with its offset, like TxnLogToolkit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zkts-damaged-'));
    // The log with the most entries; flip a byte in its second entry and cut it inside its last.
    const logs = files.logs.map((path) => ({ path, log: readTxnLog(new Uint8Array(readFileSync(path))) }));
    const { path: source, log: clean } = logs.sort((a, b) => b.log.records.length - a.log.records.length)[0] as (typeof logs)[number];
    const bad = clean.records[1];
    const kept = clean.records.length - 1;
    const cut = clean.records[kept];
    if (bad === undefined || cut === undefined || kept < 3) throw new Error('log too short');
    const bytes = new Uint8Array(readFileSync(source)).slice(0, cut.offset + 7);
    bytes[bad.offset + 12 + 3] = (bytes[bad.offset + 12 + 3] ?? 0) ^ 0x10;
    const damaged = join(dir, basename(source));
    writeFileSync(damaged, bytes);
    const run = await runInProcess(COMMANDS, ['--json', 'txnlog', damaged]);
    expect(run.code).toBe(65);
    const rows = jsonLines(run.stdout);
    expect(rows).toHaveLength(kept);
    expect(rows.filter((r) => r['checksumOk'] === false).map((r) => r['offset'])).toEqual([bad.offset]);
    expect(run.stderr).toContain(`at offset ${bad.offset} [FILE_BAD_CHECKSUM]`);
    expect(run.stderr).toContain(`at offset ${cut.offset} [FILE_TRUNCATED]`);
    const java = runJavaTool(TXN_LOG_TOOLKIT, ['-d', damaged]);
    expect(java).toContain('CRC ERROR');
    expect(parseTxnLogToolkit(java).count).toBe(kept);
    // The preallocated tail of an intact copy is not damage.
    const intact = join(dir, 'intact', basename(source));
    mkdirSync(join(dir, 'intact'));
    copyFileSync(source, intact);
    expect((await runInProcess(COMMANDS, ['txnlog', join(dir, 'intact')])).code).toBe(0);
  });

  it('--follow prints a live server\'s transactions as they happen, across a new log file; --clients names the client', async () => {
    await server.start();
    const follow = startInProcess(COMMANDS, ['--json', 'txnlog', '--follow', '--interval', '100', server.dataDir]);
    // The client goes through a recording proxy, so its handshake (session id → address) is on record.
    const record = join(mkdtempSync(join(tmpdir(), 'zkts-clients-')), 'clients.json');
    const proxy = startInProcess(COMMANDS, ['proxy', '--listen', '0', '--upstream', server.connectString, '--record', record]);
    const [, port] = await proxy.waitFor(/listening on 127\.0\.0\.1:(\d+)/);
    const client = createClient(`127.0.0.1:${port}`);
    let address = '';
    try {
      await follow.waitFor(/following/, 20_000);
      await client.connect();
      await client.create('/followed', 'live');
      await client.delete('/followed');
      await follow.waitFor(/"op":"delete","path":"\/followed"/, 20_000);
      address = (await proxy.waitFor(/#0 open (\S+) ->/))[1] ?? '';
    } finally {
      await client.close();
      follow.abort();
    }
    await proxy.waitFor(/#0 closed/);
    proxy.abort();
    expect(await proxy.done).toBe(0);
    expect(await follow.done).toBe(0);
    const rows = jsonLines(follow.stdout());
    const live = rows.filter((r) => r['path'] === '/followed').map((r) => r['op']);
    expect(live).toEqual(['create2', 'delete']);
    // Nothing half-written was mistaken for damage.
    expect(follow.stderr()).not.toMatch(/FILE_/);
    await server.stop();
    const named = jsonLines((await runInProcess(COMMANDS, ['--json', 'txnlog', server.dataDir, '--path', '/followed', '--clients', record])).stdout);
    expect(named.map((r) => [r['op'], r['clients']])).toEqual([
      ['create2', [address]],
      ['delete', [address]],
    ]);
  });
});

