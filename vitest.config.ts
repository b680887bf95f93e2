import { defineConfig } from 'vitest/config';

import { fileURLToPath } from 'node:url';

// Two projects: `unit` needs nothing but Node (codec, framing, fakes); `integration` starts real
// ZooKeeper servers through @zkts/testkit. Workspace packages resolve to their sources, so tests run
// against src/ without a build (tsc does the same through the `zkts-source` export condition).
const src = (pkg: string): string => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));
const resolve = {
  alias: {
    '@zkts/protocol': src('protocol'),
    '@zkts/recipes': src('recipes'),
    '@zkts/testkit': src('testkit'),
  },
};

export default defineConfig({
  resolve,
  test: {
    // Real servers are heavy on two cores: two test files at a time.
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          include: ['packages/*/test/unit/**/*.test.ts', 'bench/test/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        resolve,
        test: {
          name: 'integration',
          include: ['packages/*/test/integration/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          globalSetup: ['packages/testkit/test/global-setup.ts'],
        },
      },
    ],
  },
});
