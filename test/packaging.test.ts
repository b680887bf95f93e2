// The packages as a user gets them: packed tarballs, checked by publint --strict and attw (ESM-only profile:
// the contract is ESM with require(esm), see README "Requirements"), installed by npm into a project outside the
// repository, and every documentation example run from there against the shared server: as an ES module, as
// CommonJS where the example uses require(), and compiled by tsc under `node16` and `bundler` resolution.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { connect, type ZkClient } from '../packages/protocol/src/index.js';

import { allBlocks, keepsPromise, scratchName, type DocBlock } from './support/doc-blocks.js';
import {
  EXAMPLE_DEPENDENCIES, LIBRARIES, PACKAGES, assertBuilt, attw, installInto, packAll, packInstalled, publint, run, tsc, writeTsconfig,
} from './support/packaging.js';

const scratch = mkdtempSync(join(tmpdir(), 'zkts-packaging-'));
const project = join(scratch, 'app');
const blocks = allBlocks();
let tarballs: Record<(typeof PACKAGES)[number], string>;
let zk: ZkClient;

/** Runs one compiled or copied example with its own chroot, so examples never meet on the shared server. */
async function runExample(block: DocBlock, style: string, file: string): Promise<void> {
  const chroot = `/packaging-${process.pid}-${style}-${scratchName(block)}`;
  await zk.create(chroot);
  try {
    const res = await run(process.execPath, [file], { cwd: project, env: { ...process.env, ZKTS_SERVER: `${inject('zkConnectString')}${chroot}` } });
    const printed = res.stdout.trimEnd().split('\n');
    expect(res.code, `${block.name} (${style}) exited ${res.code}\n${res.stderr}`).toBe(0);
    expect(keepsPromise(printed, block.expected), `${block.name} (${style}) printed:\n${res.stdout}\npromised:\n${block.expected.join('\n')}`).toBe(true);
  } finally {
    await zk.removeRecursive(chroot);
  }
}

describe('packed tarballs', () => {
  beforeAll(async () => {
    assertBuilt();
    zk = await connect(inject('zkConnectString'));
    tarballs = await packAll(join(scratch, 'packs'));
    const examples = await packInstalled(EXAMPLE_DEPENDENCIES, join(scratch, 'third-party'));
    await installInto(project, [...PACKAGES.map((p) => tarballs[p]), ...examples]);
  }, 60_000);

  afterAll(async () => {
    await zk?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('each carries its LICENSE and README', async () => {
    for (const pkg of PACKAGES) {
      const list = await run('tar', ['tzf', tarballs[pkg]]);
      expect(list.stdout.split('\n')).toEqual(expect.arrayContaining(['package/LICENSE', 'package/README.md', 'package/package.json']));
    }
  });

  it('publint --strict finds nothing', async () => {
    const results = await Promise.all(PACKAGES.map((p) => publint(tarballs[p])));
    results.forEach((res, i) => expect(res.code, `${PACKAGES[i]}:\n${res.stdout}${res.stderr}`).toBe(0));
  });

  it('attw (ESM-only profile) finds nothing in the libraries', async () => {
    const results = await Promise.all(LIBRARIES.map((p) => attw(tarballs[p])));
    results.forEach((res, i) => expect(res.code, `${LIBRARIES[i]}:\n${res.stdout}${res.stderr}`).toBe(0));
  });

  it('the CLI is a bin with nothing to import', async () => {
    const help = await run(join(project, 'node_modules/.bin/zkts'), ['--help'], { cwd: project });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: zkts/);
    const imported = await run(process.execPath, ['--input-type=module', '-e', "import('zkts').then(() => console.log('imported'), (e) => console.log(e.code))"], { cwd: project });
    expect(imported.stdout.trim()).toBe('ERR_MODULE_NOT_FOUND');
  });

  it('the documentation has ES module, CommonJS and TypeScript examples', () => {
    expect(blocks.some((b) => b.lang === 'js' && b.module === 'esm')).toBe(true);
    expect(blocks.some((b) => b.module === 'cjs')).toBe(true);
    expect(blocks.some((b) => b.lang === 'ts')).toBe(true);
  });

  describe('plain JavaScript examples run on plain Node', () => {
    for (const block of blocks.filter((b) => b.lang === 'js')) {
      it(`${block.name} (${block.module})`, async () => {
        const file = join(project, `${scratchName(block)}.${block.module === 'cjs' ? 'cjs' : 'mjs'}`);
        writeFileSync(file, block.code);
        await runExample(block, block.module, file);
      });
    }
  });

  // Every ES module example, JavaScript included, is also a TypeScript program: it must type-check strictly
  // against the installed .d.ts files (skipLibCheck off), and what tsc emits must run.
  for (const resolution of ['node16', 'bundler'] as const) {
    describe(`TypeScript, moduleResolution ${resolution}`, () => {
      const esm = blocks.filter((b) => b.module === 'esm');
      beforeAll(async () => {
        mkdirSync(join(project, 'src'), { recursive: true });
        for (const block of esm) writeFileSync(join(project, 'src', `${scratchName(block)}.ts`), `${block.code}\nexport {};\n`);
        const res = await run(process.execPath, [tsc, '-p', writeTsconfig(project, resolution, resolution)], { cwd: project });
        expect(res.code, `tsc (${resolution}):\n${res.stdout}${res.stderr}`).toBe(0);
      }, 60_000);

      for (const block of esm) {
        it(block.name, async () => {
          await runExample(block, resolution, join(project, `out-${resolution}`, `${scratchName(block)}.js`));
        });
      }
    });
  }
});
