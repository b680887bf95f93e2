// `npm run demo` (scripts/demo.sh): starts a local ZooKeeper through the testkit (or uses ZKTS_SERVER), runs
// the demo, prints a summary and a last line `DEMO_SUMMARY {json}`, and stops what it started.
import { startZooKeeper } from '@zkts/testkit';
import type { ZooKeeperServer } from '@zkts/testkit';

import { runDemo } from './demo.js';
import type { DemoSummary } from './messages.js';

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

function summaryText(s: DemoSummary): string {
  const mark = (ok: boolean): string => (ok ? '✔' : '✘');
  return [
    '',
    'Summary',
    `  ${mark(s.fair.inOrder)} fair lock granted in queue order: ${s.fair.grantOrder.join(' → ')}`,
    `  ${mark(s.fair.tokensIncreasing)} fencing tokens strictly increasing: ${s.fair.tokens.join(' < ')}`,
    `  ${mark(s.kill.passedOn)} after SIGKILL of the holder the lock passed on in ${(s.kill.handoffMs / 1000).toFixed(2)} s (token ${s.kill.victimToken} → ${s.kill.heirToken})`,
    `  ${mark(s.rw.maxConcurrentReaders === s.rw.readers.length)} ${s.rw.maxConcurrentReaders} readers held the read-write lock together`,
    `  ${mark(s.rw.writerWaitedForReaders)} the writer waited until every reader had released`,
    `  ${mark(s.counter.value === s.counter.workers)} counter = ${s.counter.value} (${s.counter.workers} workers)`,
    ...s.problems.map((p) => `  ✘ ${p}`),
    `  ${s.ok ? 'all good' : 'PROBLEMS'} in ${(s.durationMs / 1000).toFixed(1)} s`,
  ].join('\n');
}

async function main(): Promise<void> {
  let server: ZooKeeperServer | undefined;
  let connectString = process.env['ZKTS_SERVER'];
  if (!connectString) {
    print('Starting a local ZooKeeper (testkit)…');
    // A short tick lets the killed holder's session expire within a few seconds.
    server = await startZooKeeper({ tickTime: 500, minSessionTimeout: 1000 });
    connectString = server.connectString;
  }
  try {
    const live = process.stdout.isTTY ? (line: string): void => void process.stdout.write(`\r${line}`) : undefined;
    const summary = await runDemo({ connectString, print, ...(live ? { live } : {}) });
    print(summaryText(summary));
    print(`DEMO_SUMMARY ${JSON.stringify(summary)}`);
    process.exitCode = summary.ok ? 0 : 1;
  } finally {
    if (server) {
      await server.stop();
      print('Stopped the local ZooKeeper.');
    }
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`demo failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
