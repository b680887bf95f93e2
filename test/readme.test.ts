// The documentation's examples are part of the suite: every ```js and ```ts block of the README, the package
// READMEs, docs/guides and the `@example`s of the API's doc comments (test/support/doc-blocks.ts) is written to
// a module and imported from the sources against the shared test server, and what it prints must be what its
// closing comment lines promise. Each block gets a chroot of its own, so examples can use plain paths
// ('/greeting') without meeting each other; it runs twice in that chroot, as a reader runs an example twice, so
// one that leaves state behind that breaks its next run fails here. Nothing may reach stderr either:
// console.error/warn and process warnings (a cache's decode error, an unknown option) count. CommonJS blocks
// need the installed packages (require() does not see vitest's aliases): packaging.test.ts runs them, and all
// the others again, from the packed tarballs.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { format, inspect, type InspectOptions } from 'node:util';

import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import { connect, type ZkClient } from '../packages/protocol/src/index.js';

import { MAIN_API, allBlocks, documentFiles, keepsPromise, repoRoot, scratchName, type DocBlock } from './support/doc-blocks.js';

const workDir = `${repoRoot}.zkts-tmp/docs-${process.pid}`;
const blocks = allBlocks();

interface Output {
  printed: string[];
  stderr: string[];
}

/** Imports one copy of a block (a module runs once per file) with ZKTS_SERVER set, and collects what it printed. */
async function importOnce(block: DocBlock, run: number, server: string): Promise<Output> {
  mkdirSync(workDir, { recursive: true });
  const file = `${workDir}/${scratchName(block)}-run${run}.${block.lang === 'ts' ? 'ts' : 'mjs'}`;
  writeFileSync(file, `${block.code}\nexport {};\n`);
  const out: Output = { printed: [], stderr: [] };
  const onWarning = (warning: Error): void => void out.stderr.push(`warning: ${warning.name}: ${warning.message}`);
  const toStderr = (...args: unknown[]): void => void out.stderr.push(format(...args));
  vi.stubEnv('ZKTS_SERVER', server);
  const spies = [
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void out.printed.push(...format(...args).split('\n'))),
    vi.spyOn(console, 'error').mockImplementation(toStderr),
    vi.spyOn(console, 'warn').mockImplementation(toStderr),
    // An exporter's console dump (OpenTelemetry's console exporters use console.dir) is printed output too.
    vi.spyOn(console, 'dir').mockImplementation((item: unknown, options?: InspectOptions) => {
      out.printed.push(...inspect(item, { customInspect: false, ...options }).split('\n'));
    }),
  ];
  process.on('warning', onWarning);
  try {
    await import(/* @vite-ignore */ file);
    // process.emitWarning reports on the next tick: let a warning from the example's last step arrive.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
    for (const spy of spies) spy.mockRestore();
    vi.unstubAllEnvs();
  }
  return out;
}

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

  it('the README links every guide', () => {
    const readme = readFileSync(`${repoRoot}README.md`, 'utf8');
    const guides = documentFiles().filter((f) => f.startsWith('docs/guides/'));
    expect(guides.filter((guide) => !readme.includes(`](${guide})`))).toEqual([]);
  });

  it('every main class and function of the API has an @example in its doc comment, run below', () => {
    const withExample = new Set(blocks.map((b) => b.symbol));
    expect(MAIN_API.filter((name) => !withExample.has(name))).toEqual([]);
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
    it(`${block.name} prints what it promises, twice, and nothing to stderr`, async () => {
      const chroot = `/docs-${process.pid}-${scratchName(block)}`;
      await zk.create(chroot);
      try {
        for (const run of [1, 2]) {
          const { printed, stderr } = await importOnce(block, run, `${inject('zkConnectString')}${chroot}`);
          expect(keepsPromise(printed, block.expected), `run ${run} printed:\n${printed.join('\n')}\npromised:\n${block.expected.join('\n')}`).toBe(true);
          expect(stderr, `run ${run} wrote to stderr`).toEqual([]);
        }
      } finally {
        await zk.removeRecursive(chroot);
      }
    });
  }
});
