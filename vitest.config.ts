import { defineConfig } from 'vitest/config';

import { fileURLToPath } from 'node:url';

// Two projects: `unit` needs nothing but Node (codec, framing, fakes); `integration` starts real
// ZooKeeper servers through @zkts/testkit. Workspace packages resolve to their sources, so tests run
// against src/ without a build (tsc does the same through the `zkts-source` export condition).
const src = (pkg: string, entry = 'index'): string => fileURLToPath(new URL(`./packages/${pkg}/src/${entry}.ts`, import.meta.url));
// Exact matches: a plain '@zkts/protocol' key would also catch '@zkts/protocol/codec' as a prefix and send it to
// src/index.ts/codec. Each package entry point (package.json `exports`) gets its own anchored line.
const exact = (specifier: string, target: string): { find: RegExp; replacement: string } => ({
  find: new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  replacement: target,
});
const resolve = {
  alias: [
    exact('@zkts/protocol', src('protocol')),
    exact('@zkts/protocol/codec', src('protocol', 'codec')),
    exact('@zkts/protocol/inspect', src('protocol', 'inspect')),
    exact('@zkts/recipes', src('recipes')),
    exact('@zkts/testkit', src('testkit')),
    exact('@zkts/server', src('server')),
    exact('@zkts/sasl-kerberos', src('sasl-kerberos')),
    exact('@zkts/opentelemetry', src('opentelemetry')),
  ],
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
          // Unit files share a worker's loaded modules instead of importing everything afresh per file: that
          // import was more than half of the project's time. A unit test leaves no state behind (fakes and
          // clocks are made per test); a shuffled order (`--sequence.shuffle`) must pass as well.
          isolate: false,
        },
      },
      {
        resolve,
        test: {
          name: 'integration',
          include: ['packages/*/test/integration/**/*.test.ts', 'packages/*/test/conformance/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          globalSetup: ['packages/testkit/test/global-setup.ts'],
        },
      },
    ],
  },
});
