// The packages as a user gets them: packed tarballs, checked by publint --strict and attw (ESM-only profile:
// the contract is ESM with require(esm), see README "Requirements"), installed by npm into a directory outside
// the repository with the README's own install commands (run verbatim, offline), and every documentation
// example run from there against the shared server, twice (as a reader would) and with nothing on stderr: as
// plain Node, as CommonJS where the example uses require(), compiled by tsc with the README's tsconfig.json and
// run on this Node (the suite's: 20); compiled under `node16` and `bundler` resolution too, which must emit the
// same JavaScript.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { connect, type ZkClient } from '../packages/protocol/src/index.js';

import { allBlocks, fencedBlock, keepsPromise, repoRoot, scratchName, type DocBlock } from './support/doc-blocks.js';
import {
  EXAMPLE_DEPENDENCIES, LIBRARIES, PACKAGES, THIRD_PARTY_DEPENDENCIES, assertBuilt, attw, dependenciesOf, linkNodeTypes, packAll, packInstalled,
  packedManifest, publint, run, runShell, tsc, writeTsconfig, type PackageDir,
} from './support/packaging.js';

// The README's layout: the clone, ../zkts-packs beside it, and the project in ../my-app.
const scratch = mkdtempSync(join(tmpdir(), 'zkts-packaging-'));
const clone = join(scratch, 'zkts');
const packs = join(scratch, 'zkts-packs');
const project = join(scratch, 'my-app');
const blocks = allBlocks();
const packLoop = fencedBlock('README.md', 'sh', 'pnpm pack');
const projectSetup = fencedBlock('README.md', 'sh', 'npm init -y');
const cliSetup = fencedBlock('README.md', 'sh', 'npx zkts --help');
const readmeTsconfig = fencedBlock('README.md', 'json', '"compilerOptions"');
let tarballs: Record<PackageDir, string>;
let install: { code: number; stdout: string; stderr: string };
let zk: ZkClient;

/** Runs one compiled or copied example twice in one chroot, so a run that leaves state behind breaks the next. */
async function runExample(block: DocBlock, style: string, file: string): Promise<void> {
  const chroot = `/packaging-${process.pid}-${style}-${scratchName(block)}`;
  await zk.create(chroot);
  try {
    for (const attempt of [1, 2]) {
      const res = await run(process.execPath, [file], { cwd: project, env: { ...process.env, ZKTS_SERVER: `${inject('zkConnectString')}${chroot}` } });
      const printed = res.stdout.trimEnd().split('\n');
      const what = `${block.name} (${style}, run ${attempt})`;
      expect(res.code, `${what} exited ${res.code}\n${res.stderr}`).toBe(0);
      expect(keepsPromise(printed, block.expected), `${what} printed:\n${res.stdout}\npromised:\n${block.expected.join('\n')}`).toBe(true);
      expect(res.stderr, `${what} wrote to stderr`).toBe('');
    }
  } finally {
    await zk.removeRecursive(chroot);
  }
}

describe('packed tarballs', () => {
  beforeAll(async () => {
    assertBuilt();
    zk = await connect(inject('zkConnectString'));
    tarballs = await packAll(packs);
    mkdirSync(clone, { recursive: true });
    install = await runShell(`${projectSetup}\n${cliSetup}`, clone);
    if (install.code !== 0) throw new Error(`the README's install commands failed:\n${install.stderr}${install.stdout}`);
    // The OpenTelemetry bridge and what its README's examples import (OpenTelemetry's API and SDK, packed from the
    // workspace's installed copies: the registry is not reachable here).
    const examples = await packInstalled(EXAMPLE_DEPENDENCIES, join(scratch, 'third-party'));
    const otel = await runShell(`npm install ${[tarballs.opentelemetry, ...examples].join(' ')}`, project);
    if (otel.code !== 0) throw new Error(`installing @zkts/opentelemetry failed:\n${otel.stderr}${otel.stdout}`);
    linkNodeTypes(project);
  }, 180_000);

  afterAll(async () => {
    await zk?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("we pack every package of the workspace, and so does the README's pack loop", () => {
    const workspace = readdirSync(join(repoRoot, 'packages')).filter((dir) => {
      const manifest = join(repoRoot, 'packages', dir, 'package.json');
      return existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { private?: boolean }).private !== true;
    });
    expect([...PACKAGES].sort()).toEqual(workspace.sort());
    const loop = /^for p in ([^;]+); do/m.exec(packLoop)?.[1]?.trim().split(/\s+/);
    expect(loop?.slice().sort()).toEqual([...PACKAGES].sort());
  });

  it('every dependency of a tarball is a tarball we ship (in range) or a third-party package we name', async () => {
    const manifests = await Promise.all(PACKAGES.map((p) => packedManifest(tarballs[p])));
    const shipped = new Map(manifests.map((m) => [String(m['name']), String(m['version'])]));
    for (const manifest of manifests) {
      for (const [name, range] of dependenciesOf(manifest)) {
        const version = shipped.get(name);
        if (version === undefined) expect(THIRD_PARTY_DEPENDENCIES, `${String(manifest['name'])} depends on ${name}, which we do not pack`).toContain(name);
        else expect([version, `^${version}`], `${String(manifest['name'])} wants ${name}@${range}; we ship ${version}`).toContain(range);
      }
    }
  });

  it("the README's commands take every zkts package from a tarball, the CLI's optional Kerberos one included", () => {
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
    const ours = Object.entries(lock.packages).filter(([path]) => /(^|\/)node_modules\/(@zkts\/[^/]+|zkts)$/.test(path));
    expect(ours.map(([path]) => path.replace(/^.*node_modules\//, '')).sort()).toEqual(
      ['@zkts/opentelemetry', '@zkts/protocol', '@zkts/recipes', '@zkts/sasl-kerberos', '@zkts/server', '@zkts/testkit', 'zkts'].sort(),
    );
    for (const [path, entry] of ours) expect(entry.resolved, path).toMatch(/^file:\.\.\/zkts-packs\/[^/]+\.tgz$/);
    expect(lock.packages['node_modules/@zkts/sasl-kerberos']?.resolved).toBe(`file:../zkts-packs/${basename(tarballs['sasl-kerberos'])}`);
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
    expect(install.stdout).toMatch(/^usage: zkts/m); // the README's `npx zkts --help`
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

  // As a reader saves them: `.js` (an ES module by the project's "type": "module") or `.cjs`.
  describe('plain JavaScript examples run on plain Node', () => {
    for (const block of blocks.filter((b) => b.lang === 'js')) {
      it(`${block.name} (${block.module})`, async () => {
        const file = join(project, `${scratchName(block)}.${block.module === 'cjs' ? 'cjs' : 'js'}`);
        writeFileSync(file, block.code);
        await runExample(block, block.module, file);
      });
    }
  });

  // Every ES module example, JavaScript included, is also a TypeScript program: it must type-check strictly
  // against the installed .d.ts files, and what tsc emits must run. First with the README's tsconfig.json as it
  // stands (`npx tsc`, then node), then under both module resolutions with skipLibCheck off.
  const esm = blocks.filter((b) => b.module === 'esm');
  const styles = [
    { name: 'readme', title: `TypeScript, the README's tsconfig.json, tsc then node ${process.version}`, config: 'tsconfig.json', out: 'dist' },
    { name: 'node16', title: 'TypeScript, moduleResolution node16', config: '', out: 'out-node16' },
    { name: 'bundler', title: 'TypeScript, moduleResolution bundler', config: '', out: 'out-bundler' },
  ] as const;
  for (const style of styles) {
    describe(style.title, () => {
      beforeAll(async () => {
        mkdirSync(join(project, 'src'), { recursive: true });
        for (const block of esm) writeFileSync(join(project, 'src', `${scratchName(block)}.ts`), `${block.code}\nexport {};\n`);
        let config: string;
        if (style.name === 'readme') writeFileSync((config = join(project, style.config)), readmeTsconfig);
        else config = writeTsconfig(project, style.name, style.name);
        // tsc checks our .d.ts files and @types/node in full (skipLibCheck off): slow on a busy machine.
        const res = await run(process.execPath, [tsc, '-p', config], { cwd: project, timeout: 170_000 });
        expect(res.code, `tsc (${style.name}):\n${res.stdout}${res.stderr}`).toBe(0);
      }, 180_000);

      if (style.name === 'readme') {
        for (const block of esm) {
          it(block.name, async () => {
            await runExample(block, style.name, join(project, style.out, `${scratchName(block)}.js`));
          });
        }
      } else {
        // Type erasure alone: the same target and ES modules emit the same JavaScript under every resolution,
        // so the runs of the README's output stand for these. Should they ever differ, run these outputs too.
        it(`emits for every example the JavaScript the README's tsconfig.json emits (${esm.length} examples)`, () => {
          for (const block of esm) {
            const name = `${scratchName(block)}.js`;
            expect(readFileSync(join(project, style.out, name), 'utf8'), block.name).toBe(readFileSync(join(project, 'dist', name), 'utf8'));
          }
        });
      }
    });
  }
});
