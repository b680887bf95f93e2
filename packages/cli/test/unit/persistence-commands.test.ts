/**
 * `zkts txnlog` and `zkts snapshot` on the committed fixtures (files a real server wrote; see
 * packages/protocol/scripts/persistence-fixtures.ts): the filters, the JSON records, gzip snapshots, damaged
 * files and usage errors. The comparison with ZooKeeper's own tools on fresh files is in
 * test/integration/persistence.test.ts.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { snapshot } from '../../src/commands/snapshot.js';
import { parseZxidRange, txnlog } from '../../src/commands/txnlog.js';
import { ExitCode } from '../../src/exit-codes.js';
import { jsonLines } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

const FIXTURES = fileURLToPath(new URL('../../../protocol/test/fixtures/persistence/', import.meta.url));
const manifest = JSON.parse(readFileSync(join(FIXTURES, 'manifest.json'), 'utf8')) as { sessions: Record<string, string> };
const commands = [txnlog, snapshot];

async function txns(...args: string[]): Promise<Record<string, unknown>[]> {
  const run = await runInProcess(commands, ['--json', 'txnlog', FIXTURES, ...args]);
  expect(run.code, run.stderr).toBe(ExitCode.OK);
  return jsonLines(run.stdout);
}

describe('zkts txnlog on a real server\'s logs', () => {
  it('reads every log of the directory in zxid order', async () => {
    const rows = await txns();
    expect(rows.map((r) => r['zxidHex'])).toEqual(Array.from({ length: rows.length }, (_, i) => `0x${(i + 1).toString(16)}`));
    expect(rows.length).toBeGreaterThanOrEqual(31);
    expect(rows[2]).toMatchObject({ op: 'create2', path: '/app', data: '"hello"', acl: 'world:anyone:cdrwa', ephemeral: false, checksumOk: true });
  });

  it('filters by zxid range, op, session and path subtree', async () => {
    expect((await txns('--zxid', '0x10..0x12')).map((r) => r['zxidHex'])).toEqual(['0x10', '0x11', '0x12']);
    expect((await txns('--zxid', '..3')).map((r) => r['zxidHex'])).toEqual(['0x1', '0x2', '0x3']);
    expect((await txns('--op', 'deleteContainer')).map((r) => [r['path'], r['by'], r['sessionHex']]).sort()).toEqual([
      ['/app/box', 'reaper', '0x0'],
      ['/app/ttl-short', 'reaper', '0x0'],
    ]);
    const short = await txns('--session', `0x${manifest.sessions['short'] ?? ''}`);
    expect(short.map((r) => r['op'])).toEqual(['createSession', 'create2', 'closeSession']);
    // The subtree /app/box: the container, its child, and the reaper; not /app/box-like siblings.
    expect((await txns('--path', '/app/box')).map((r) => [r['op'], r['path']])).toEqual([
      ['createContainer', '/app/box'],
      ['create2', '/app/box/item'],
      ['delete', '/app/box/item'],
      ['deleteContainer', '/app/box'],
    ]);
    // A path inside a multi, and one deleted by a closeSession.
    expect((await txns('--path', '/app/m1')).map((r) => r['op'])).toEqual(['multi']);
    expect((await txns('--path', '/app/held', '--op', 'closeSession')).map((r) => r['deleted'])).toEqual([['/app/held']]);
  });

  it('says which multi op failed and why', async () => {
    const [failed] = await txns('--path', '/app/m2');
    expect(failed).toMatchObject({ op: 'multi', failed: 'op 2: NO_NODE (nothing applied)', ops: ['create /app/m2', 'error NO_NODE', 'error RUNTIME_INCONSISTENCY'] });
  });

  it('reports damage with its offset after the valid transactions, exit 65', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zkts-txnlog-'));
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'log.1')));
    writeFileSync(join(dir, 'log.1'), bytes.subarray(0, 1000));
    const run = await runInProcess(commands, ['txnlog', join(dir, 'log.1')]);
    expect(run.code).toBe(ExitCode.DATA_ERROR);
    expect(run.stdout.trim().split('\n').length).toBeGreaterThan(5);
    expect(run.stderr).toMatch(/log\.1: entry of \d+ bytes runs past the end of the file \(\d+ bytes left\) at offset \d+ \[FILE_TRUNCATED\]/);
    copyFileSync(join(FIXTURES, 'snapshot.0'), join(dir, 'log.5'));
    const wrong = await runInProcess(commands, ['txnlog', join(dir, 'log.5')]);
    expect(wrong.code).toBe(ExitCode.DATA_ERROR);
    expect(wrong.stderr).toContain('not a transaction log: magic "ZKSN", expected "ZKLG" (it is a snapshot) at offset 0 [FILE_BAD_MAGIC]');
  });

  it('refuses malformed filters', async () => {
    expect(parseZxidRange('0x10..')).toEqual({ from: 16n, to: undefined });
    expect(parseZxidRange('7')).toEqual({ from: 7n, to: 7n });
    expect((await runInProcess(commands, ['txnlog', FIXTURES, '--zxid', '1..2..3'])).code).toBe(ExitCode.USAGE);
    expect((await runInProcess(commands, ['txnlog', FIXTURES, '--session', 'zz'])).code).toBe(ExitCode.USAGE);
    expect((await runInProcess(commands, ['txnlog'])).code).toBe(ExitCode.USAGE);
    expect((await runInProcess(commands, ['txnlog', '/nonexistent/dir'])).code).toBe(ExitCode.NO_INPUT);
  });
});

describe('zkts snapshot on a real server\'s snapshot', () => {
  it('reads the newest snapshot of a directory: nodes, sessions, summary', async () => {
    const run = await runInProcess(commands, ['--json', 'snapshot', FIXTURES]);
    expect(run.code, run.stderr).toBe(ExitCode.OK);
    const rows = jsonLines(run.stdout);
    const held = rows.find((r) => r['path'] === '/app/held');
    expect(held).toMatchObject({ type: 'node', kind: 'ephemeral', owner: `0x${manifest.sessions['holder'] ?? ''}`, data: 'still here', dataLength: 10 });
    expect(rows.find((r) => r['path'] === '/app')).toMatchObject({ numChildren: 3, version: 1, acl: [{ scheme: 'world', id: 'anyone', perms: 31 }] });
    expect(rows.find((r) => r['path'] === '/app/cfg')).toMatchObject({ encoding: 'base64', aversion: 1, acl: [{ scheme: 'world', id: 'anyone', perms: 31 }, { scheme: 'ip', id: '127.0.0.1', perms: 1 }] });
    expect(rows.filter((r) => r['type'] === 'session')).toEqual([{ type: 'session', id: expect.any(String), idHex: `0x${manifest.sessions['holder'] ?? ''}`, timeout: 30000, ephemerals: ['/app/held'] }]);
    expect(rows[rows.length - 1]).toMatchObject({ type: 'summary', nodes: 8, ephemeral: 1, ttl: 1, checksum: 'ok', complete: true, problems: 0 });
  });

  it('reads gzip snapshots, filters by path, and names damage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zkts-snap-'));
    const bytes = readFileSync(join(FIXTURES, 'snapshot.1e'));
    writeFileSync(join(dir, 'snapshot.1e.gz'), gzipSync(bytes));
    const gz = await runInProcess(commands, ['snapshot', join(dir, 'snapshot.1e.gz'), '--path', '/zookeeper']);
    expect(gz.code, gz.stderr).toBe(ExitCode.OK);
    expect(gz.stdout.split('\n').filter((l) => l.startsWith('/'))).toEqual(['/zookeeper', '/zookeeper/config', '/zookeeper/quota']);
    const flipped = new Uint8Array(bytes);
    flipped[200] = (flipped[200] ?? 0) ^ 0xff;
    writeFileSync(join(dir, 'snapshot.2'), flipped);
    const bad = await runInProcess(commands, ['snapshot', join(dir, 'snapshot.2')]);
    expect(bad.code).toBe(ExitCode.DATA_ERROR);
    expect(bad.stderr).toMatch(/\[FILE_(BAD_CHECKSUM|BAD_RECORD|TRUNCATED)\]/);
    expect(bad.stderr).toMatch(/at offset \d+/);
  });

  it('a directory means the snapshot the server would load: newer files a crash cut short are named and skipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zkts-snap-'));
    const bytes = readFileSync(join(FIXTURES, 'snapshot.1e'));
    copyFileSync(join(FIXTURES, 'snapshot.0'), join(dir, 'snapshot.0'));
    copyFileSync(join(FIXTURES, 'snapshot.1e'), join(dir, 'snapshot.1e'));
    // What a SIGKILL while the server writes leaves: a prefix of a snapshot, or an empty file.
    writeFileSync(join(dir, 'snapshot.25'), bytes.subarray(0, bytes.length - 40));
    writeFileSync(join(dir, 'snapshot.26'), new Uint8Array(0));
    const run = await runInProcess(commands, ['--json', 'snapshot', dir]);
    expect(run.code, run.stderr).toBe(ExitCode.OK);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: 'summary', file: join(dir, 'snapshot.1e'), nodes: 8, complete: true });
    const skipped = jsonLines(run.stderr).map((line) => line['error'] as Record<string, unknown>);
    expect(skipped.map((e) => [e['code'], String(e['message']).split(':')[1]?.trim()])).toEqual([
      ['SNAPSHOT_UNSEALED', `skipped ${join(dir, 'snapshot.26')}`],
      ['SNAPSHOT_UNSEALED', `skipped ${join(dir, 'snapshot.25')}`],
    ]);
    // Named as a file, the cut one is read as far as it goes and its damage named.
    const torn = await runInProcess(commands, ['snapshot', join(dir, 'snapshot.25')]);
    expect(torn.code).toBe(ExitCode.DATA_ERROR);
    expect(torn.stderr).toMatch(/\[FILE_TRUNCATED\]/);
  });

  it('a directory with no sealed snapshot shows its newest one and the damage, exit 65', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zkts-snap-'));
    const bytes = readFileSync(join(FIXTURES, 'snapshot.1e'));
    writeFileSync(join(dir, 'snapshot.1e'), bytes.subarray(0, bytes.length - 40));
    writeFileSync(join(dir, 'snapshot.0'), new Uint8Array(0));
    const run = await runInProcess(commands, ['snapshot', dir]);
    expect(run.code).toBe(ExitCode.DATA_ERROR);
    expect(run.stdout).toContain('/app/held');
    expect(run.stderr).toMatch(/snapshot\.1e: .*\[FILE_TRUNCATED\]/);
    expect(run.stderr).not.toContain('skipped');
  });
});
