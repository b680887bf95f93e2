/** Runs test/support/java/CuratorLock.java (Java single-file source launch) with Debian's Curator jars. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { javaRuntime } from '@zkts/testkit';

const SOURCE = fileURLToPath(new URL('./java/CuratorLock.java', import.meta.url));
const CURATOR_JARS = ['curator-client.jar', 'curator-framework.jar', 'curator-recipes.jar', 'guava.jar'].map((j) => join('/usr/share/java', j));

export function curatorClasspath(): string {
  const missing = CURATOR_JARS.filter((j) => !existsSync(j));
  if (missing.length > 0) throw new Error(`Curator jars missing (${missing.join(', ')}): run scripts/setup.sh (Debian: libcurator-recipes-java)`);
  return [javaRuntime().classpath, ...CURATOR_JARS].join(delimiter);
}

export function curatorLock(args: string[]): ChildProcess {
  const { java } = javaRuntime();
  return spawn(java, ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn', '-cp', curatorClasspath(), SOURCE, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
}
