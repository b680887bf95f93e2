// The zkts demo: four scenes, each with workers in separate processes, against one ZooKeeper.
//   1. a fair lock: workers queue in order and are granted it in order, with increasing fencing tokens;
//   2. a holder SIGKILLed mid-work: its session expires and the lock passes on;
//   3. a read-write lock: readers share it while a writer waits;
//   4. 100 workers incrementing one counter node under the lock: it ends at exactly 100.
import { performance } from 'node:perf_hooks';

import { connect } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { Mutex, ReadWriteLock } from '@zkts/recipes';

import { COUNTER, FAIR_LOCK, RW_LOCK, SESSION_TIMEOUT_MS } from './messages.js';
import type { DemoSummary, WorkerMessage } from './messages.js';
import { Worker } from './workers.js';

export interface DemoOptions {
  connectString: string;
  /** One line of output (progress, scene titles, the summary). */
  print: (line: string) => void;
  /** Rewrites the current line when the output is a terminal (the counter's progress bar). */
  live?: (line: string) => void;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export async function runDemo(options: DemoOptions): Promise<DemoSummary> {
  const t0 = performance.now();
  const stamp = (): string => `[${((performance.now() - t0) / 1000).toFixed(2).padStart(6)}s]`;
  const say = (line: string): void => options.print(`${stamp()} ${line}`);
  const root = `/zkts-demo-${Date.now().toString(36)}`;
  const workers: Worker[] = [];
  const problems: string[] = [];
  const client: ZkClient = await connect(options.connectString);

  const start = (role: string, name: string, arg: number, onMessage: (w: Worker, m: WorkerMessage) => void = () => {}): Worker => {
    const w = Worker.start(role, name, arg, options.connectString, root, onMessage);
    workers.push(w);
    return w;
  };
  const queuedNames = async (lockParticipants: () => Promise<{ data: string }[]>): Promise<string[]> =>
    (await lockParticipants()).map((p) => p.data);

  try {
    await client.mkdirp(root);
    say(`ZooKeeper ${options.connectString}, demo nodes under ${root}`);

    // ---- 1. fair lock ---------------------------------------------------------------------------------------
    options.print('');
    say('1. A fair lock: five workers (five processes, five sessions) queue in order; each holds it ~1 s.');
    say('   (the fencing token is the czxid of the holder\'s lock node: it grows with every grant)');
    const fairMutex = new Mutex(client, `${root}/${FAIR_LOCK}`);
    const grantOrder: string[] = [];
    const tokens: string[] = [];
    const fairNames = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
    const fair = fairNames.map((n) =>
      start('mutex', n, 1000, (w, m) => {
        if (m.kind === 'acquired') {
          grantOrder.push(w.name);
          tokens.push(m.token);
          say(`   ${w.name.padEnd(8)} acquired the lock   fencing token ${m.token}`);
        } else if (m.kind === 'releasing') say(`   ${w.name.padEnd(8)} releases it`);
      }),
    );
    await Promise.all(fair.map((w) => w.waitFor('connected')));
    for (const w of fair) {
      w.go();
      await until(async () => (await queuedNames(() => fairMutex.participants())).includes(w.name), 15_000, `${w.name} to queue`);
      if (w !== fair[0]) say(`   ${w.name.padEnd(8)} queued (pid ${String(w.proc.pid)})`);
    }
    const queueOrder = await queuedNames(() => fairMutex.participants());
    say(`   queue in ZooKeeper: ${queueOrder.join(' → ')}`);
    await Promise.all(fair.map((w) => w.exited));
    const inOrder = grantOrder.join() === fairNames.join();
    const tokensIncreasing = tokens.length === fairNames.length && tokens.every((t, i) => i === 0 || BigInt(t) > BigInt(tokens[i - 1] ?? '0'));
    say(`   granted in queue order: ${inOrder ? 'yes' : 'NO'}; fencing tokens strictly increasing: ${tokensIncreasing ? 'yes' : 'NO'}`);
    if (!inOrder) problems.push(`fair lock granted out of order: ${grantOrder.join(',')}`);
    if (!tokensIncreasing) problems.push(`fencing tokens not increasing: ${tokens.join(',')}`);

    // ---- 2. holder killed ------------------------------------------------------------------------------------
    options.print('');
    say(`2. A holder is SIGKILLed mid-work; its session (timeout ${SESSION_TIMEOUT_MS} ms) expires and the lock passes on.`);
    const killMutex = new Mutex(client, `${root}/${FAIR_LOCK}`);
    const victim = start('mutex', 'victim', 60_000, (w, m) => {
      if (m.kind === 'acquired') say(`   ${w.name} acquired the lock (token ${m.token}) and starts a long job`);
      if (m.kind === 'progress' && m.step <= 3) say(`   ${w.name} working… step ${m.step}`);
    });
    const heir = start('mutex', 'heir', 1000, (w, m) => {
      if (m.kind === 'acquired') say(`   ${w.name} acquired the lock (token ${m.token})`);
    });
    await Promise.all([victim.waitFor('connected'), heir.waitFor('connected')]);
    victim.go();
    const victimGrant = await victim.waitFor('acquired');
    heir.go();
    await until(async () => (await queuedNames(() => killMutex.participants())).includes('heir'), 15_000, 'heir to queue');
    say('   heir is queued behind victim');
    await victim.waitFor('progress', 15_000, (m) => m.step === 3);
    say(`   kill -9 ${String(victim.proc.pid)} (victim), mid-work`);
    const killedAt = performance.now();
    victim.kill('SIGKILL');
    const heirGrant = await heir.waitFor('acquired', 60_000);
    const handoffMs = performance.now() - killedAt;
    const passedOn = BigInt(heirGrant.token) > BigInt(victimGrant.token);
    say(`   the lock passed on ${(handoffMs / 1000).toFixed(2)} s after the kill; token ${victimGrant.token} → ${heirGrant.token}`);
    if (!passedOn) problems.push('lock did not pass on with a larger token after the kill');
    await heir.exited;

    // ---- 3. read-write lock ---------------------------------------------------------------------------------
    options.print('');
    say('3. A read-write lock: three readers share it while a writer waits for all of them.');
    const rwLock = new ReadWriteLock(client, `${root}/${RW_LOCK}`);
    let holdingReaders = 0;
    let maxReaders = 0;
    let readersReleasing = 0;
    let writerWaited = false;
    const readerNames = ['reader-1', 'reader-2', 'reader-3'];
    const onRw = (w: Worker, m: WorkerMessage): void => {
      const isReader = w.name.startsWith('reader');
      if (m.kind === 'acquired') {
        if (isReader) {
          holdingReaders++;
          maxReaders = Math.max(maxReaders, holdingReaders);
          say(`   ${w.name} holds the read lock (readers holding: ${holdingReaders})`);
        } else {
          writerWaited = readersReleasing === readerNames.length;
          say(`   ${w.name} holds the write lock (readers holding: ${holdingReaders})`);
        }
      } else if (m.kind === 'releasing') {
        if (isReader) {
          holdingReaders--;
          readersReleasing++;
        }
        say(`   ${w.name} releases`);
      }
    };
    const readers = readerNames.map((n, i) => start('reader', n, 2000 + i * 300, onRw));
    const writer = start('writer', 'writer', 500, onRw);
    await Promise.all([...readers, writer].map((w) => w.waitFor('connected')));
    for (const r of readers) r.go();
    await Promise.all(readers.map((r) => r.waitFor('acquired')));
    writer.go();
    await until(async () => (await queuedNames(() => rwLock.participants())).includes('writer'), 15_000, 'writer to queue');
    say(`   writer is queued and waiting while ${holdingReaders} readers hold the lock`);
    await Promise.all([...readers, writer].map((w) => w.exited));
    if (maxReaders !== readerNames.length) problems.push(`readers did not share the lock (max together: ${maxReaders})`);
    if (!writerWaited) problems.push('the writer got the lock before every reader had released');

    // ---- 4. the counter --------------------------------------------------------------------------------------
    options.print('');
    const processes = 4;
    const perProcess = 25;
    const total = processes * perProcess;
    say(`4. ${total} workers (${processes} processes × ${perProcess}) each add 1 to ${root}/${COUNTER} under the lock.`);
    await client.create(`${root}/${COUNTER}`, '0');
    let increments = 0;
    const bar = (n: number): string => {
      const width = 40;
      const full = Math.round((n / total) * width);
      return `   [${'#'.repeat(full)}${'.'.repeat(width - full)}] ${n}/${total}`;
    };
    const counters = Array.from({ length: processes }, (_, i) =>
      start('counter', `p${i + 1}`, perProcess, (_w, m) => {
        if (m.kind !== 'incremented') return;
        increments++;
        if (options.live) options.live(bar(m.value));
        else if (m.value % 25 === 0) say(bar(m.value));
      }),
    );
    await Promise.all(counters.map((w) => w.waitFor('connected')));
    for (const w of counters) w.go();
    const codes = await Promise.all(counters.map((w) => w.exited));
    if (options.live) options.print('');
    const value = Number(new TextDecoder().decode((await client.getData(`${root}/${COUNTER}`)).data));
    say(`   counter = ${value} after ${increments} increments`);
    if (value !== total) problems.push(`counter is ${value}, expected ${total}`);
    if (codes.some((c) => c !== 0)) problems.push('a counter process failed');

    const failures = workers.flatMap((w) => w.messages.filter((m) => m.kind === 'failed').map((m) => `${w.name}: ${m.kind === 'failed' ? m.error : ''}`));
    problems.push(...failures);
    return {
      ok: problems.length === 0,
      fair: { grantOrder, queueOrder, inOrder, tokens, tokensIncreasing },
      kill: { victim: 'victim', victimToken: victimGrant.token, heir: 'heir', heirToken: heirGrant.token, passedOn, handoffMs: Math.round(handoffMs) },
      rw: { readers: readerNames, maxConcurrentReaders: maxReaders, writerWaitedForReaders: writerWaited },
      counter: { workers: total, value },
      durationMs: Math.round(performance.now() - t0),
      problems,
    };
  } finally {
    // Remove what we started: any worker still running (only ours, by process handle), then our nodes.
    for (const w of workers) w.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await client.removeRecursive(root).catch((e: unknown) => say(`cleanup of ${root} failed: ${String(e)}`));
    await client.close();
  }
}
