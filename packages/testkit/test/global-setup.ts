import { randomBytes } from 'node:crypto';

import { listTaggedProcesses, reapContainers, reapOrphans, RUN_ENV, startZooKeeper } from '../src/index.js';

import type { TestProject } from 'vitest/node';
import type { ZooKeeperServer } from '../src/index.js';
import './support/provided.js';

/**
 * Starts the one shared standalone server of the `integration` project and provides its connect string.
 * The returned teardown runs even when tests fail; it stops the server and then checks that no JVM and no
 * container started during this run (by any worker) is still there.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Leftovers of an earlier run that was SIGKILLed (its Node process is gone) would otherwise pile up.
  reapOrphans();
  // Likewise containers and networks of the container backend whose owner is gone (no-op without Docker).
  await reapContainers();
  // Workers inherit the environment, so every JVM any test starts carries this run's id.
  const run = `${process.pid}-${randomBytes(4).toString('hex')}`;
  process.env[RUN_ENV] = run;
  let server: ZooKeeperServer | undefined = await startZooKeeper({
    extendedTypesEnabled: true,
    fourLetterWhitelist: '*',
    tickTime: 500,
    minSessionTimeout: 1000,
    maxSessionTimeout: 60_000,
  });
  project.provide('zkConnectString', server.connectString);
  project.provide('zkTestkitRun', run);
  return async () => {
    await server?.[Symbol.asyncDispose]();
    server = undefined;
    // Workers have exited by now and their exit hooks killed what they started; give the kernel a moment.
    let leaked = listTaggedProcesses().filter((p) => p.run === run);
    for (let i = 0; i < 50 && leaked.length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      leaked = listTaggedProcesses().filter((p) => p.run === run);
    }
    if (leaked.length > 0) {
      for (const p of leaked) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
    }
    // Workers remove their containers when tests dispose them, or at exit (`docker rm -f`); any left now leaked.
    const containers = await reapContainers({ run });
    const problems: string[] = [];
    if (leaked.length > 0) {
      problems.push(`${leaked.length} ZooKeeper JVM(s) outlived the test run: ${leaked.map((p) => `pid ${p.pid} (${p.tag})`).join(', ')}`);
    }
    if (containers.length > 0) {
      problems.push(`${containers.length} container(s) outlived the test run: ${containers.map((id) => id.slice(0, 12)).join(', ')}`);
    }
    if (problems.length > 0) throw new Error(`@zkts/testkit: ${problems.join('; ')}`);
  };
}
