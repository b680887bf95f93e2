// `npm run demo` (scripts/demo.sh): starts an in-memory ZooKeeper in this process (@zkts/server: no Java), or
// uses a real one (`--server HOST:PORT`, or ZKTS_SERVER), runs the demo, prints a summary and a last line
// `DEMO_SUMMARY {json}`, and stops what it started.
import { startServer } from '@zkts/server';
import type { ZkServer } from '@zkts/server';

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

/** `--server HOST:PORT` (or `--server=HOST:PORT`), else ZKTS_SERVER, else undefined: start our own. */
function serverArgument(args: readonly string[]): string | undefined {
  for (const [i, arg] of args.entries()) {
    if (arg === '--server') return args[i + 1];
    if (arg.startsWith('--server=')) return arg.slice('--server='.length);
  }
  return process.env['ZKTS_SERVER'] || undefined;
}

async function main(): Promise<void> {
  let server: ZkServer | undefined;
  let connectString = serverArgument(process.argv.slice(2));
  if (!connectString) {
    // A short tick lets the killed holder's session expire within a few seconds.
    server = await startServer({ tickTime: 500, minSessionTimeout: 1000 });
    connectString = server.connectString;
    print(`Started an in-memory ZooKeeper 3.8 server (@zkts/server) on ${connectString}; --server HOST:PORT uses a real one.`);
  }
  try {
    const live = process.stdout.isTTY ? (line: string): void => void process.stdout.write(`\r${line}`) : undefined;
    const summary = await runDemo({ connectString, print, ...(live ? { live } : {}) });
    print(summaryText(summary));
    print(`DEMO_SUMMARY ${JSON.stringify(summary)}`);
    process.exitCode = summary.ok ? 0 : 1;
  } finally {
    if (server) {
      await server.close();
      print('Stopped the in-memory ZooKeeper.');
    }
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`demo failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
