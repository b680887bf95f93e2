import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import * as testkit from '../../src/index.js';

describe('@zkts/testkit entry', () => {
  it('exports the public API', () => {
    expect(Object.keys(testkit).sort()).toEqual([
      'BACKEND_ENV',
      'FrameCutter',
      'LocalZooKeeperServer',
      'ManualClock',
      'RUN_ENV',
      'RUN_PROPERTY',
      'ServerStartError',
      'TAG_PROPERTY',
      'ZOOKEEPER_IMAGE',
      'ZooKeeperNotInstalledError',
      'containerEnvironment',
      'digestCredential',
      'dockerUnavailableReason',
      'fourLetter',
      'freePort',
      'freePorts',
      'javaRuntime',
      'listTaggedProcesses',
      'modeOf',
      'parseMntr',
      'probeJavaRuntime',
      'reapOrphans',
      'resolveBackend',
      'startEnsemble',
      'startFaultProxy',
      'startZooKeeper',
    ]);
  });

  it('never imports vitest or testcontainers statically from the library', () => {
    const dir = fileURLToPath(new URL('../../src/', import.meta.url));
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(`${dir}${file}`, 'utf8');
      expect(text, file).not.toMatch(/from 'vitest/);
      // testcontainers is optional: only `import type` (erased) and a dynamic import() are allowed.
      expect(text.replace(/import type [^;]+;/g, ''), file).not.toMatch(/from 'testcontainers'/);
    }
  });
});
