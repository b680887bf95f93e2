// The layer zones of eslint.config.js bite: for each zone, one import that crosses a layer is reported and one
// that respects it is not. Without the forbidden half, a zone that matched nothing would pass unnoticed.
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

interface Case {
  file: string;
  forbidden: string;
  allowed: string;
}

const cases: Case[] = [
  { file: 'packages/protocol/src/codec/records/example.ts', forbidden: '../../client/client.js', allowed: '../jute/reader.js' },
  { file: 'packages/protocol/src/codec/example.ts', forbidden: '../inspect/format.js', allowed: '../errors/errors.js' },
  { file: 'packages/protocol/src/inspect/example.ts', forbidden: '../client/client.js', allowed: '../codec/frame.js' },
  { file: 'packages/protocol/src/errors/example.ts', forbidden: '../codec/frame.js', allowed: './codes.js' },
  { file: 'packages/protocol/src/client/example.ts', forbidden: '@zkts/recipes', allowed: '../codec/frame.js' },
  { file: 'packages/recipes/src/index.ts', forbidden: './locks/mutex.js', allowed: './locks/index.js' },
  { file: 'packages/recipes/src/locks/example.ts', forbidden: '../internal/wait.js', allowed: '../internal/index.js' },
  { file: 'packages/recipes/src/election/example.ts', forbidden: '../locks/contender.js', allowed: '../locks/index.js' },
  { file: 'packages/recipes/src/quotas/example.ts', forbidden: '../internal/validate.js', allowed: '../internal/index.js' },
  { file: 'packages/recipes/src/locks/example.ts', forbidden: '@zkts/protocol/codec', allowed: '@zkts/protocol' },
  { file: 'packages/recipes/src/cache/engine/example.ts', forbidden: '../../internal/wait.js', allowed: '../types.js' },
  { file: 'packages/recipes/src/queues/curator/example.ts', forbidden: '../../locks/mutex.js', allowed: '../../errors.js' },
  { file: 'packages/recipes/src/internal/example.ts', forbidden: '../locks/index.js', allowed: '../errors.js' },
  { file: 'packages/server/src/requests/example.ts', forbidden: '@zkts/protocol', allowed: '@zkts/protocol/codec' },
  { file: 'packages/testkit/src/example.ts', forbidden: '@zkts/protocol', allowed: 'node:net' },
  { file: 'packages/opentelemetry/src/example.ts', forbidden: '@zkts/recipes', allowed: '@zkts/protocol' },
  { file: 'packages/opentelemetry/src/example.ts', forbidden: '@zkts/protocol/codec', allowed: '@opentelemetry/api' },
  { file: 'packages/cli/src/example.ts', forbidden: '../../recipes/src/internal/index.js', allowed: '@zkts/recipes' },
  { file: 'packages/cli/test/unit/example.test.ts', forbidden: '../../../recipes/src/internal/index.js', allowed: '../../src/main.js' },
  { file: 'packages/cli/ui/src/views/example.tsx', forbidden: 'node:fs', allowed: 'preact' },
  { file: 'packages/cli/ui/src/views/example.tsx', forbidden: '@zkts/protocol', allowed: '../../../src/console/api-types.js' },
  { file: 'packages/cli/ui/src/example.ts', forbidden: '../../src/console/http-server.js', allowed: './api.js' },
  { file: 'bench/clients/example.ts', forbidden: '../../packages/protocol/src/client/client.js', allowed: '@zkts/protocol' },
];

const zoneMessages = async (eslint: ESLint, file: string, specifier: string): Promise<string[]> => {
  const [result] = await eslint.lintText(`export * from '${specifier}';\n`, { filePath: `${root}${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
};

describe('eslint layer zones', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: root });
  });

  it.each(cases)('$file may not import $forbidden', async ({ file, forbidden }) => {
    expect(await zoneMessages(eslint, file, forbidden)).toHaveLength(1);
  });

  it.each(cases)('$file may import $allowed', async ({ file, allowed }) => {
    expect(await zoneMessages(eslint, file, allowed)).toEqual([]);
  });
});
