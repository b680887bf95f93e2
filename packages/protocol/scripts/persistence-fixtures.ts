/**
 * Regenerates test/fixtures/persistence/: transaction logs and snapshots written by a real ZooKeeper server
 * (the testkit's, so Java and the ZooKeeper jars must be installed) running the scripted workload of
 * test/helpers/persistence-workload.ts, plus the output of ZooKeeper's own TxnLogToolkit and
 * SnapshotFormatter on them, and txn-records.json: every txn record serialized by ZooKeeper's Jute classes
 * (TxnRecordVectors.java, run with Java's single-file launcher). The codec's unit tests decode and re-encode
 * all of it byte for byte.
 *
 *   node --conditions=zkts-source --import tsx packages/protocol/scripts/persistence-fixtures.ts
 *
 * Time stamps, session ids and the order of a snapshot's hash-ordered sections change from run to run, so
 * regenerating changes the files; the tests only compare a file with itself and with the Java tools' views.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { javaRuntime } from '@zkts/testkit';

import { workloadDataDir } from '../test/support/persistence-workload.js';

const OUT = fileURLToPath(new URL('../test/fixtures/persistence/', import.meta.url));

function javaTool(main: string, args: string[]): string {
  const { java, classpath } = javaRuntime();
  return execFileSync(java, ['-cp', classpath, main, ...args], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } });
}

async function main(): Promise<void> {
  const { server, result, files } = await workloadDataDir();
  try {
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    for (const file of [...files.logs, ...files.snapshots]) {
      copyFileSync(file, join(OUT, basename(file)));
      const tool = basename(file).startsWith('log.')
        ? javaTool('org.apache.zookeeper.server.persistence.TxnLogToolkit', ['-d', file])
        : javaTool('org.apache.zookeeper.server.SnapshotFormatter', [file]);
      writeFileSync(join(OUT, `${basename(file)}.java.txt`), tool);
    }
    const vectors = javaTool(join(dirname(fileURLToPath(import.meta.url)), 'TxnRecordVectors.java'), []);
    writeFileSync(join(OUT, 'txn-records.json'), `[\n${vectors.trim().split('\n').join(',\n')}\n]\n`);
    writeFileSync(join(OUT, 'manifest.json'), `${JSON.stringify({ generatedBy: 'packages/protocol/scripts/persistence-fixtures.ts', zookeeper: '3.8 (testkit server)', ...result, files: readdirSync(OUT).sort() }, null, 2)}\n`);
    console.log(`wrote ${readdirSync(OUT).length} files to ${OUT}`);
  } finally {
    await server[Symbol.asyncDispose]();
  }
}

await main();
