// The README's TypeScript examples are part of the suite: each ```ts block is written to a module and imported
// against the shared test server, so the documentation cannot drift from the API.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const workDir = `${root}.zkts-tmp/readme-${process.pid}`;
// Blocks are told apart by the packages they import (the recipes block imports the client too), not by position.
const exampleOf = (code: string): string => {
  const imports = [...code.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
  if (imports.includes('@zkts/recipes')) return 'recipes';
  if (imports.includes('@zkts/testkit')) return 'testkit';
  if (imports.includes('@zkts/protocol/codec')) return 'codec';
  return imports.includes('@zkts/protocol') ? 'client' : 'unknown';
};
// The `// ` comment lines after a block's last statement: the output it promises.
const commentedOutput = (code: string): string[] => {
  const lines = code.trimEnd().split('\n');
  let start = lines.length;
  while (start > 0 && lines[start - 1]?.startsWith('// ') === true) start--;
  return lines.slice(start).map((line) => line.slice(3));
};

describe('README examples', () => {
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('has the examples this test expects (client, codec, recipes, testkit)', () => {
    const examples = blocks.map(exampleOf);
    for (const expected of ['client', 'codec', 'recipes', 'testkit']) expect(examples).toContain(expected);
  });

  blocks.forEach((code, index) => {
    const example = exampleOf(code);
    it(`block ${index + 1} (${example}) runs`, async () => {
      mkdirSync(workDir, { recursive: true });
      const file = `${workDir}/block-${index + 1}.ts`;
      writeFileSync(file, `${code}\nexport {};\n`);
      vi.stubEnv('ZKTS_SERVER', inject('zkConnectString'));
      const logged: unknown[][] = [];
      const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
      try {
        await import(/* @vite-ignore */ file);
      } finally {
        spy.mockRestore();
        vi.unstubAllEnvs();
      }
      // Every block prints what it shows; the client and codec blocks' comments state the values.
      expect(logged.length).toBeGreaterThan(0);
      if (example === 'client') {
        expect(logged[0]).toEqual(['hello', 0]);
        expect(logged[1]).toEqual(['dataChanged']);
        expect(String(logged[2]?.[0])).toMatch(/^\/readme-.*\/job-0000000000$/);
      }
      if (example === 'codec') expect(logged.map((args) => args.join(' '))).toEqual(commentedOutput(code));
      if (example === 'recipes') expect(typeof logged[0]?.[1]).toBe('bigint');
      if (example === 'testkit') expect(logged[0]?.[2]).toBe('imok');
    });
  });
});
