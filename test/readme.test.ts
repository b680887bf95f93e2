// The README's TypeScript examples are part of the suite: each ```ts block is written to a module and imported
// against the shared test server, so the documentation cannot drift from the API.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const workDir = `${root}.zkts-tmp/readme-${process.pid}`;

describe('README examples', () => {
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('has the examples this test expects (client, recipes, testkit)', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  blocks.forEach((code, index) => {
    const firstImport = /from '([^']+)'/.exec(code)?.[1] ?? 'unknown';
    it(`block ${index + 1} (${firstImport}) runs`, async () => {
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
      // Every block prints what it shows; the client block's comments state the values.
      expect(logged.length).toBeGreaterThan(0);
      if (index === 0) {
        expect(logged[0]).toEqual(['hello', 0]);
        expect(logged[1]).toEqual(['dataChanged']);
        expect(String(logged[2]?.[0])).toMatch(/^\/readme-.*\/job-0000000000$/);
      }
      if (index === 1) expect(typeof logged[0]?.[1]).toBe('bigint');
      if (index === 2) expect(logged[0]?.[2]).toBe('imok');
    });
  });
});
