// The documentation's examples are part of the suite: every ```js and ```ts block of the README, the package
// READMEs and docs/guides (test/support/doc-blocks.ts) is written to a module and imported from the sources
// against the shared test server, and what it prints must be what its closing comment lines promise. Each block
// gets a chroot of its own, so examples can use plain paths ('/greeting') without meeting each other.
// CommonJS blocks need the installed packages (require() does not see vitest's aliases): packaging.test.ts runs
// them, and all the others again, from the packed tarballs.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { format, inspect, type InspectOptions } from 'node:util';

import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import { connect, type ZkClient } from '../packages/protocol/src/index.js';

import { allBlocks, documentFiles, keepsPromise, repoRoot, scratchName } from './support/doc-blocks.js';

const workDir = `${repoRoot}.zkts-tmp/docs-${process.pid}`;
const blocks = allBlocks();

describe('documentation examples', () => {
  let zk: ZkClient;
  beforeAll(async () => {
    zk = await connect(inject('zkConnectString'));
  });
  afterAll(async () => {
    await zk?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('covers the README, the library READMEs and the five guides', () => {
    expect(documentFiles()).toEqual(
      expect.arrayContaining([
        'README.md',
        'packages/protocol/README.md',
        'packages/recipes/README.md',
        'packages/opentelemetry/README.md',
        'docs/guides/coming-from-node-zookeeper-client.md',
        'docs/guides/coming-from-curator.md',
        'docs/guides/coming-from-kazoo.md',
        'docs/guides/locks-and-fencing.md',
        'docs/guides/failure-semantics.md',
      ]),
    );
    for (const file of documentFiles()) expect(blocks.some((b) => b.file === file), `${file} has no runnable example`).toBe(true);
  });

  it("a promise matches line for line, '…' within a line and '⋮' any number of whole lines", () => {
    expect(keepsPromise(['id 42', 'done'], ['id …', 'done'])).toBe(true);
    expect(keepsPromise(['id 42', 'extra', 'done'], ['id …', 'done'])).toBe(false);
    expect(keepsPromise(['a', 'b', 'c', 'done'], ['⋮', 'done'])).toBe(true);
    expect(keepsPromise(['done'], ['⋮', 'done'])).toBe(true);
    expect(keepsPromise(['a', "  name: 'x',", 'b', 'done'], ['⋮', "  name: 'x',", '⋮', 'done'])).toBe(true);
    expect(keepsPromise(['a', 'b', 'done'], ['⋮', "  name: 'x',", '⋮', 'done'])).toBe(false);
    expect(keepsPromise(['id 4', '2'], ['id …'])).toBe(false);
  });

  it('every example promises its output', () => {
    for (const block of blocks) expect(block.expected.length, `${block.name} ends with no // output lines`).toBeGreaterThan(0);
  });

  for (const block of blocks.filter((b) => b.module === 'esm')) {
    it(`${block.name} prints what it promises`, async () => {
      mkdirSync(workDir, { recursive: true });
      const file = `${workDir}/${scratchName(block)}.${block.lang === 'ts' ? 'ts' : 'mjs'}`;
      writeFileSync(file, `${block.code}\nexport {};\n`);
      const chroot = `/docs-${process.pid}-${scratchName(block)}`;
      await zk.create(chroot);
      vi.stubEnv('ZKTS_SERVER', `${inject('zkConnectString')}${chroot}`);
      const printed: string[] = [];
      const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(...format(...args).split('\n')));
      // An exporter's console dump (OpenTelemetry's console exporters use console.dir) is printed output too.
      const dir = vi.spyOn(console, 'dir').mockImplementation((item: unknown, options?: InspectOptions) => {
        printed.push(...inspect(item, { customInspect: false, ...options }).split('\n'));
      });
      try {
        await import(/* @vite-ignore */ file);
      } finally {
        spy.mockRestore();
        dir.mockRestore();
        vi.unstubAllEnvs();
        await zk.removeRecursive(chroot);
      }
      expect(keepsPromise(printed, block.expected), `printed:\n${printed.join('\n')}\npromised:\n${block.expected.join('\n')}`).toBe(true);
    });
  }
});
