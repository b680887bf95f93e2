/**
 * `decode --stats` and `proxy --stats` on traffic recorded through the CLI's own proxy, against the shared
 * real server: a herd-prone lock (every waiter watches the lock directory's children) wakes every waiter on
 * each release, the zkts Mutex (each waiter watches its predecessor) wakes exactly one; the latency
 * percentiles are the per-request latencies `decode` prints; sessions show up with their timelines.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { createClient } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { Mutex } from '@zkts/recipes';
import { describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/commands/index.js';
import { jsonLines, sharedServer, uniqueRoot } from '../support/cli.js';
import { runInProcess, startInProcess } from '../support/run-in-process.js';
import type { RunningCommand } from '../support/run-in-process.js';

const server = sharedServer();
const dir = mkdtempSync(join(tmpdir(), 'zkts-stats-'));
const CONTENDERS = 5;
/** How long each later holder keeps the lock: long enough for every woken waiter to re-arm its watch. */
const HOLD_MS = 200;

type Row = Record<string, unknown>;

async function startProxy(args: string[]): Promise<{ proxy: RunningCommand; via: string }> {
  const proxy = startInProcess(COMMANDS, ['proxy', '--listen', '0', '--upstream', server, ...args]);
  const [, port] = await proxy.waitFor(/listening on 127\.0\.0\.1:(\d+)/);
  return { proxy, via: `127.0.0.1:${port}` };
}

/** Waits until `root` has `count` children (read directly, not through the proxy). */
async function queued(direct: ZkClient, root: string, count: number): Promise<void> {
  while ((await direct.getChildren(root)).children.length < count) await sleep(20);
  // The last waiter sets its watch right after its create: give it a moment.
  await sleep(HOLD_MS);
}

/** The herd-prone lock: every waiter re-lists the directory and watches its children. */
async function herdLock(client: ZkClient, root: string, hold: () => Promise<void>): Promise<void> {
  const { path } = await client.create(`${root}/lock-`, null, { mode: 'ephemeral-sequential' });
  const me = path.slice(root.length + 1);
  for (;;) {
    const { children, watch } = await client.getChildren(root, { watch: true });
    if ([...children].sort()[0] === me) break;
    await watch;
  }
  await hold();
  await client.delete(path);
}

async function contend(via: string, root: string, direct: ZkClient, kind: 'herd' | 'mutex'): Promise<void> {
  const clients = await Promise.all(Array.from({ length: CONTENDERS }, () => createClient(via, { sessionTimeout: 10_000 }).connect()));
  try {
    let first = true;
    const hold = async (): Promise<void> => {
      if (first) {
        first = false;
        await queued(direct, root, CONTENDERS);
      } else {
        await sleep(HOLD_MS);
      }
    };
    await Promise.all(
      clients.map(async (client, i) => {
        // Stagger the joins so the first contender is the first holder.
        await sleep(i * 30);
        if (kind === 'herd') return herdLock(client, root, hold);
        const lease = await new Mutex(client, root).acquire();
        await hold();
        await lease.release();
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

function releaseFanouts(report: Row): number[] {
  const perChange = (report['fanout'] as { perChange: Row[] }).perChange;
  return perChange.filter((c) => (c['cause'] as Row | null)?.['op'] === 'delete').map((c) => c['fanout'] as number);
}

function nearestRank(sorted: number[], p: number): number {
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1] as number;
}

describe('traffic analysis: herd factor, latencies, sessions', { timeout: 120_000 }, () => {
  it('a herd-prone lock wakes every waiter per release, the zkts Mutex wakes one', async () => {
    const direct = await createClient(server).connect();
    try {
      const results: Record<'herd' | 'mutex', { fanouts: number[]; report: Row; live?: Row }> = {} as never;
      for (const kind of ['herd', 'mutex'] as const) {
        const root = uniqueRoot(`stats-${kind}`);
        await direct.create(root);
        const record = join(dir, `${kind}.json`);
        const { proxy, via } = await startProxy(['--record', record, '--stats', '--json']);
        await contend(via, root, direct, kind);
        proxy.abort();
        expect(await proxy.done).toBe(0);
        const live = jsonLines(proxy.stdout()).find((r) => r['type'] === 'stats') as Row;
        const decoded = await runInProcess(COMMANDS, ['--json', 'decode', '--stats', record]);
        expect(decoded.code, decoded.stderr).toBe(0);
        const report = JSON.parse(decoded.stdout) as Row;
        results[kind] = { fanouts: releaseFanouts(report), report, live };
        // The live proxy saw the same changes as the decoded transcript.
        expect(releaseFanouts(live)).toEqual(results[kind].fanouts);
        await direct.removeRecursive(root);
      }
      // Each release of the herd lock wakes every waiter still queued — and, from the second release on, the
      // releasing holder too: the getChildren that told it it had the lock left a watch behind. The first
      // holder's watch was already spent on the joins. With 5 contenders: 4, 4, 3, 2, 1.
      expect(results.herd.fanouts).toEqual([CONTENDERS - 1, ...Array.from({ length: CONTENDERS - 1 }, (_, i) => CONTENDERS - 1 - i)]);
      // The Mutex's waiters each watch their predecessor: one wake-up per release.
      expect(results.mutex.fanouts).toEqual(Array.from({ length: CONTENDERS - 1 }, () => 1));
      expect((results.herd.report['fanout'] as Row)['max']).toBe(CONTENDERS - 1);
      expect(((results.mutex.report['totals'] as Row)['sessions'])).toBe(CONTENDERS);
      const text = await runInProcess(COMMANDS, ['decode', '--stats', join(dir, 'herd.json')]);
      expect(text.stdout).toMatch(new RegExp(`NodeChildrenChanged /stats-herd-[0-9a-f]+ woke ${CONTENDERS - 1} session\\(s\\)  \\(delete /stats-herd-[0-9a-f]+/lock-\\d+ by #\\d\\)`));
      expect(text.stdout).toMatch(/^watch fan-out: \d+ change\(s\)/m);
    } finally {
      await direct.close();
    }
  });

  it('latency percentiles are the per-request latencies decode prints; errors and sessions are counted', async () => {
    const root = uniqueRoot('stats-lat');
    const record = join(dir, 'latency.json');
    const { proxy, via } = await startProxy(['--record', record]);
    const client = await createClient(via).connect();
    await client.create(root);
    for (let i = 0; i < 30; i++) await client.create(`${root}/n${i}`, `v${i}`);
    for (let i = 0; i < 30; i++) await client.getData(`${root}/n${i}`);
    for (let i = 0; i < 5; i++) await client.exists(`${root}/missing${i}`);
    await client.delete(`${root}/missing`).catch(() => undefined);
    await client.removeRecursive(root);
    await client.close();
    await proxy.waitFor(/#0 closed/);
    proxy.abort();
    expect(await proxy.done).toBe(0);

    const decoded = jsonLines((await runInProcess(COMMANDS, ['--json', 'decode', record])).stdout);
    const report = JSON.parse((await runInProcess(COMMANDS, ['--json', 'decode', '--stats', record])).stdout) as Row;
    const latency = report['latency'] as Record<string, Row>;
    const byOp = new Map<string, number[]>();
    for (const row of decoded) {
      if (row['kind'] === 'reply' && typeof row['latencyMs'] === 'number') byOp.set(String(row['op']), [...(byOp.get(String(row['op'])) ?? []), row['latencyMs']]);
    }
    expect(byOp.get('getData')).toHaveLength(30);
    for (const [op, samples] of byOp) {
      const sorted = samples.sort((a, b) => a - b);
      expect({ op, ...latency[op] }).toMatchObject({
        op,
        count: sorted.length,
        p50: nearestRank(sorted, 50),
        p90: nearestRank(sorted, 90),
        p99: nearestRank(sorted, 99),
        max: sorted[sorted.length - 1],
      });
    }
    const errors = report['errors'] as Row[];
    // exists on a missing node is answered NONODE too.
    expect(errors.find((e) => e['err'] === 'NO_NODE')).toMatchObject({ count: 6, ops: { exists: 5, delete: 1 } });
    const sessions = report['sessions'] as Row[];
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ outcome: 'closed', connections: 1, reconnects: 0 });
    const slowest = report['slowest'] as Row[];
    expect(slowest[0]?.['latencyMs']).toBe(Math.max(...[...byOp.values()].flat()));
  });
});
