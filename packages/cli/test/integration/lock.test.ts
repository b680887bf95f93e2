import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { connect } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { Mutex } from '@zkts/recipes';
import { startFaultProxy } from '@zkts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { collect, sharedServer, spawnZkts, uniqueRoot, waitForOutput, zkts } from '../support/cli.js';
import { curatorLock } from '../support/curator.js';
import { until } from '../support/wait.js';

const server = sharedServer();
let client: ZkClient;
const dir = mkdtempSync(join(tmpdir(), 'zkts-lock-'));
/** Processes a test started outside zkts (orphaned CMDs, Java); killed at the end if still alive. */
const strays: number[] = [];

beforeAll(async () => {
  client = await connect(server);
});
afterAll(async () => {
  for (const pid of strays) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await client.close();
});

/** Whether `pid` runs (a zombie waiting for init to reap it does not). */
function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function children(path: string): Promise<string[]> {
  try {
    return (await client.getChildren(path)).children;
  } catch {
    return [];
  }
}

// Every test spawns the CLI (node + tsx) several times; on two shared cores that can take minutes.
describe('zkts lock', { timeout: 300_000 }, () => {
  it('serialises 20 concurrent non-atomic increments, with growing fencing tokens', async () => {
    const path = uniqueRoot('lock');
    const counter = join(dir, 'counter');
    const tokens = join(dir, 'tokens');
    writeFileSync(counter, '0\n');
    writeFileSync(tokens, '');
    const script = `n=$(cat ${counter}); sleep 0.05; echo $((n + 1)) > ${counter}; echo $ZKTS_FENCING_TOKEN >> ${tokens}`;
    const runs = await Promise.all(
      Array.from({ length: 20 }, () => zkts(['--server', server, '--timeout', '100000', 'lock', path, '--', 'sh', '-c', script])),
    );
    for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(counter, 'utf8')).toBe('20\n');
    const granted = readFileSync(tokens, 'utf8').trim().split('\n').map(BigInt);
    expect(granted).toHaveLength(20);
    for (let i = 1; i < granted.length; i++) expect(granted[i]).toBeGreaterThan(granted[i - 1] as bigint);
    expect(await children(path)).toEqual([]);
  });

  it("passes on the command's exit status, signal and fencing token, and 127 for a missing command", async () => {
    const path = uniqueRoot('lock');
    const s = ['--server', server, 'lock', path, '--'];
    const [status, killed, token, missing, usage] = await Promise.all([
      zkts([...s, 'sh', '-c', 'exit 7']),
      zkts([...s, 'sh', '-c', 'kill -USR1 $$']),
      zkts([...s, 'sh', '-c', 'echo "$ZKTS_FENCING_TOKEN $ZKTS_LOCK_NODE"']),
      zkts([...s, '/nonexistent/command']),
      zkts(['--server', server, 'lock', path]),
    ]);
    expect(status.code).toBe(7);
    expect(killed.code).toBe(128 + 10);
    expect(token.stdout).toMatch(new RegExp(`^[1-9]\\d* ${path}/_c_[0-9a-f-]{36}-lock-\\d{10}\\n$`));
    expect(missing.code).toBe(127);
    expect(missing.stderr).toBe('zkts: lock: cannot run /nonexistent/command: ENOENT\n');
    expect(usage.code).toBe(64);
    expect(usage.stderr).toMatch(/missing CMD after --/);
    expect(await children(path)).toEqual([]);
  });

  it('exits 75 when the timeout passes first and leaves no node behind', async () => {
    const path = uniqueRoot('lock');
    const holder = new Mutex(client, path);
    const lease = await holder.acquire();
    const started = Date.now();
    const result = await zkts(['--server', server, '--timeout', '1500', 'lock', path, '--', 'sh', '-c', 'echo should-not-run']);
    expect(result.code).toBe(75);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`zkts: lock: timed out after 1500 ms waiting for the lock ${path}\n`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(await children(path)).toEqual([lease.node.slice(path.length + 1)]);
    await lease.release();
  });

  it('gives up waiting on SIGINT: exit 130, its waiting node removed', async () => {
    const path = uniqueRoot('lock');
    const lease = await new Mutex(client, path).acquire();
    const child = spawnZkts(['--server', server, 'lock', path, '--', 'sh', '-c', 'echo should-not-run']);
    const output = collect(child);
    await until(async () => (await children(path)).length === 2, 'zkts queued', { timeout: 20_000, every: 50 });
    child.kill('SIGINT');
    const result = await output.done;
    expect(result.code).toBe(130);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`zkts: lock: interrupted (SIGINT) while waiting for the lock ${path}\n`);
    expect(await children(path)).toEqual([lease.node.slice(path.length + 1)]);
    await lease.release();
  });

  it('forwards SIGTERM to the command, then releases and exits with its status', async () => {
    const path = uniqueRoot('lock');
    const child = spawnZkts(['--server', server, 'lock', path, '--', 'sh', '-c', 'trap "echo got-term; exit 5" TERM; echo held; while :; do sleep 0.1; done']);
    const output = collect(child);
    await waitForOutput(output.stdout, /held/);
    child.kill('SIGTERM');
    const result = await output.done;
    expect(result).toMatchObject({ code: 5, stdout: 'held\ngot-term\n' });
    expect(await children(path)).toEqual([]);
  });

  it('stops the command with SIGTERM and exits 76 when the lock is lost', async () => {
    const path = uniqueRoot('lock');
    const child = spawnZkts(['--server', server, 'lock', path, '--', 'sh', '-c', 'trap "echo got-term; exit 3" TERM; echo held; while :; do sleep 0.1; done']);
    const output = collect(child);
    await waitForOutput(output.stdout, /held/);
    // Someone deletes the lock node (an operator, or a session that expired server-side).
    const [node] = await children(path);
    await client.delete(`${path}/${node ?? ''}`);
    const result = await output.done;
    expect(result.code).toBe(76);
    expect(result.stdout).toBe('held\ngot-term\n');
    expect(result.stderr).toMatch(/lost: node deleted; stopping the command \(SIGTERM\)\n/);
    expect(result.stderr).toMatch(new RegExp(`zkts: lock: the lock ${path} was lost while sh ran\\n$`));
  });

  it("holds the lock until every process CMD started has exited; --foreground only until CMD's own exit", async () => {
    for (const foreground of [false, true]) {
      const path = uniqueRoot('lock');
      const log = join(dir, `group-${String(foreground)}.log`);
      const go = join(dir, `group-${String(foreground)}.go`);
      writeFileSync(log, '');
      // CMD starts a background job and exits at once; the job works on until the test creates `go`.
      const job = `(echo job-start >> ${log}; while [ ! -e ${go} ]; do sleep 0.05; done; echo job-end >> ${log}) >/dev/null 2>&1 &`;
      const first = collect(spawnZkts(['--server', server, 'lock', ...(foreground ? ['--foreground'] : []), path, '--', 'sh', '-c', `${job} echo started`]));
      await waitForOutput(first.stdout, /started/);
      await until(() => readFileSync(log, 'utf8') === 'job-start\n', 'the job started', { timeout: 20_000, every: 25 });
      const second = zkts(['--server', server, '--timeout', '100000', 'lock', path, '--', 'sh', '-c', `echo second >> ${log}`]);
      if (foreground) {
        // The negative control: the lock passes on while the job still works.
        expect(await second).toMatchObject({ code: 0 });
        writeFileSync(go, '');
        await until(() => readFileSync(log, 'utf8').endsWith('job-end\n'), 'the job ended', { timeout: 20_000, every: 25 });
        expect(readFileSync(log, 'utf8')).toBe('job-start\nsecond\njob-end\n');
        expect((await first.done).code).toBe(0);
      } else {
        await until(async () => (await children(path)).length === 2, 'the second holder queued', { timeout: 20_000, every: 50 });
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(readFileSync(log, 'utf8')).toBe('job-start\n');
        writeFileSync(go, '');
        expect(await first.done).toMatchObject({ code: 0 });
        expect(first.stderr()).toBe(`zkts: lock: sh exited; holding ${path} until the processes it started have exited\n`);
        expect(await second).toMatchObject({ code: 0 });
        expect(readFileSync(log, 'utf8')).toBe('job-start\njob-end\nsecond\n');
      }
      expect(await children(path)).toEqual([]);
    }
  });

  it('a lost lock stops every process CMD started, not just CMD; --foreground stops CMD alone', async () => {
    for (const foreground of [false, true]) {
      const path = uniqueRoot('lock');
      const args = ['--server', server, 'lock', ...(foreground ? ['--foreground'] : []), path, '--'];
      const output = collect(spawnZkts([...args, 'sh', '-c', 'sleep 60 >/dev/null 2>&1 & echo "job $!"; wait']));
      const [, pid] = await waitForOutput(output.stdout, /job (\d+)\n/);
      strays.push(Number(pid));
      const [node] = await children(path);
      await client.delete(`${path}/${node ?? ''}`);
      expect((await output.done).code).toBe(76);
      expect(alive(Number(pid))).toBe(foreground);
    }
  });

  it('exits 76 when the session is lost while the command runs (client-side expiry, and --lost-on suspended)', async () => {
    const [host = '', port = ''] = server.split(':');
    for (const [extra, why] of [[[], /lost: session expired/], [['--lost-on', 'suspended'], /lost: connection suspended/]] as const) {
      const proxy = await startFaultProxy({ host, port: Number(port) });
      try {
        const path = uniqueRoot('lock');
        const child = spawnZkts(['--server', proxy.connectString, '--session-timeout', '2000', 'lock', ...extra, path, '--', 'sh', '-c', 'trap "echo got-term; exit 3" TERM; echo held; while :; do sleep 0.1; done']);
        const output = collect(child);
        await waitForOutput(output.stdout, /held/);
        // The server stops hearing from zkts (and zkts from it): no reply, no ping, no close.
        proxy.blackhole();
        const result = await output.done;
        expect(result.code).toBe(76);
        expect(result.stdout).toBe('held\ngot-term\n');
        expect(result.stderr).toMatch(why);
        // The server expired the session too, so the node is gone and the lock free.
        await until(async () => (await children(path)).length === 0, 'lock node gone', { timeout: 20_000, every: 50 });
      } finally {
        proxy.restore();
        await proxy.close();
      }
    }
  });

  it("passes the lock on when a holder is SIGKILLed, once its session expires", async () => {
    const path = uniqueRoot('lock');
    const pidFile = join(dir, 'holder.pid');
    const holder = spawnZkts(['--server', server, '--session-timeout', '2000', 'lock', path, '--', 'sh', '-c', `echo $$ > ${pidFile}; echo held; exec sleep 60`]);
    const holderOutput = collect(holder);
    await waitForOutput(holderOutput.stdout, /held/);
    strays.push(Number(readFileSync(pidFile, 'utf8')));
    const next = spawnZkts(['--server', server, '--timeout', '30000', 'lock', path, '--', 'sh', '-c', 'echo second']);
    const nextOutput = collect(next);
    // The second one is queued behind the holder.
    await until(async () => (await children(path)).length === 2, 'second contender queued', { timeout: 20_000, every: 50 });
    holder.kill('SIGKILL');
    const killedAt = Date.now();
    const result = await nextOutput.done;
    expect(result).toMatchObject({ code: 0, stdout: 'second\n' });
    // Session timeout 2 s (the server may round it to its tick); plus the time to notice and start sh.
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(await children(path)).toEqual([]);
  });

  it('lets --shared holders run together', async () => {
    const path = uniqueRoot('lock');
    const log = join(dir, 'shared.log');
    writeFileSync(log, '');
    const script = `echo start >> ${log}; sleep 2; echo end >> ${log}`;
    const runs = await Promise.all([1, 2].map(() => zkts(['--server', server, 'lock', '--shared', path, '--', 'sh', '-c', script])));
    for (const run of runs) expect(run.code).toBe(0);
    // Both started before either ended: they held the read lock at the same time.
    expect(readFileSync(log, 'utf8')).toBe('start\nstart\nend\nend\n');
  });

  it('one PATH, 8 exclusive and 12 --shared holders over 100 grants: exclusive ones overlap nobody, --shared ones share', async () => {
    const path = uniqueRoot('lock');
    const log = join(dir, 'one-path.log');
    writeFileSync(log, '');
    // Each CMD logs the interval it held the lock: taken after the grant, and before the release.
    const hold = (kind: 'read' | 'write', seconds: string): string =>
      `s=$(date +%s%N); sleep ${seconds}; echo "${kind} $s $(date +%s%N)" >> ${log}`;
    const worker = async (kind: 'read' | 'write'): Promise<void> => {
      for (let i = 0; i < 5; i++) {
        const shared = kind === 'read' ? ['--shared'] : [];
        const cmd = hold(kind, kind === 'read' ? '0.05' : '0.01');
        const run = await zkts(['--server', server, '--timeout', '100000', 'lock', ...shared, path, '--', 'sh', '-c', cmd]);
        expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' }); // 75 would be a lost wakeup
      }
    };
    await Promise.all([...Array.from({ length: 8 }, () => worker('write')), ...Array.from({ length: 12 }, () => worker('read'))]);
    const held = readFileSync(log, 'utf8').trim().split('\n').map((line) => {
      const [kind, start, end] = line.split(' ');
      return { kind, start: BigInt(start ?? ''), end: BigInt(end ?? '') };
    });
    expect(held).toHaveLength(100);
    held.sort((a, b) => (a.start < b.start ? -1 : 1));
    let overlaps = 0;
    let readers = 0;
    let maxReaders = 0;
    for (const [i, a] of held.entries()) {
      for (const b of held.slice(i + 1)) {
        if (b.start >= a.end) break;
        if (a.kind === 'write' || b.kind === 'write') overlaps++;
      }
    }
    const edges = held.filter((h) => h.kind === 'read').flatMap((h) => [[h.start, 1], [h.end, -1]] as [bigint, number][]);
    edges.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]));
    for (const [, d] of edges) maxReaders = Math.max(maxReaders, (readers += d));
    console.info(`zkts lock, one path: ${held.length} grants (40 exclusive, 60 --shared), ${overlaps} overlaps, up to ${maxReaders} --shared at once`);
    expect(overlaps).toBe(0);
    expect(maxReaders).toBeGreaterThan(1);
    expect(await children(path)).toEqual([]);
  });

  it("waits for a lock held by Curator's InterProcessMutex in a JVM", async () => {
    const path = uniqueRoot('lock');
    const java = curatorLock([server, path, 'hold']);
    if (java.pid !== undefined) strays.push(java.pid);
    const javaOutput = collect(java);
    await waitForOutput(javaOutput.stdout, /ACQUIRED/, 60_000);
    const waiting = spawnZkts(['--server', server, '--timeout', '60000', 'lock', path, '--', 'sh', '-c', 'echo zkts-got-it']);
    const waitingOutput = collect(waiting);
    await until(async () => (await children(path)).length === 2, 'zkts queued behind Curator', { timeout: 20_000, every: 50 });
    // Curator's node and ours share the layout: _c_<uuid>-lock-<seq>.
    for (const name of await children(path)) expect(name).toMatch(/^_c_[0-9a-f-]{36}-lock-\d{10}$/);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(waitingOutput.stdout()).toBe('');
    java.stdin?.end('release\n');
    await waitForOutput(javaOutput.stdout, /RELEASED/, 30_000);
    expect(await waitingOutput.done).toMatchObject({ code: 0, stdout: 'zkts-got-it\n' });
    expect((await javaOutput.done).code).toBe(0);

    // And the other way round: while zkts holds the lock, Curator cannot get it.
    const holder = spawnZkts(['--server', server, 'lock', path, '--', 'sh', '-c', 'echo held; sleep 30']);
    const holderOutput = collect(holder);
    await waitForOutput(holderOutput.stdout, /held/);
    const tryJava = collect(curatorLock([server, path, 'try', '1000']));
    expect((await tryJava.done).stdout).toBe('TIMEOUT\n');
    holder.kill('SIGTERM');
    expect((await holderOutput.done).code).toBe(128 + 15);
    expect(await children(path)).toEqual([]);
  });
});
