// The API reference is generated from the doc comments (typedoc.json; `pnpm run docs` writes docs/api): one
// module per package, named as it is imported, whose page is the package's README under a description, and an
// index page that introduces them. The build fails on an exported declaration, method or accessor without a
// doc comment, in every package; internals the packages export for each other stay out; the main classes and
// functions show an `@example` (readme.test.ts runs them). The last test shows the gate closes: the same options
// on a package with one undocumented export must fail.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MAIN_API, repoRoot } from './support/doc-blocks.js';
import { run, type Run } from './support/packaging.js';

const typedoc = join(repoRoot, 'node_modules/.bin/typedoc');
const scratch = mkdtempSync(join(tmpdir(), 'zkts-typedoc-'));

/** The parts of TypeDoc's JSON output these checks read. */
interface Reflection {
  name: string;
  kind: number;
  readme?: { text: string }[];
  comment?: { summary: { text: string }[]; blockTags?: { tag: string }[] };
  signatures?: Reflection[];
  children?: Reflection[];
}

const MODULE = 2;
const text = (parts: { text: string }[] | undefined): string => (parts ?? []).map((p) => p.text).join('');
const all = (r: Reflection): Reflection[] => [r, ...(r.children ?? []).flatMap(all)];
const blockTags = (r: Reflection): string[] => [r, ...(r.signatures ?? [])].flatMap((x) => x.comment?.blockTags ?? []).map((t) => t.tag);

describe('API reference', () => {
  let build: Run;
  let api: Reflection;

  beforeAll(async () => {
    build = await run(typedoc, ['--options', 'typedoc.json', '--out', join(scratch, 'html'), '--json', join(scratch, 'api.json')], { cwd: repoRoot, timeout: 240_000 });
    api = JSON.parse(readFileSync(join(scratch, 'api.json'), 'utf8')) as Reflection;
  }, 240_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('builds from the doc comments with nothing undocumented', () => {
    expect(stripVTControlCharacters(build.stdout + build.stderr)).not.toMatch(/warning|error/i);
    expect(build.code).toBe(0);
  });

  it('has one module per package, named as it is imported, with its README and a description', () => {
    const modules = (api.children ?? []).filter((c) => c.kind === MODULE);
    expect(modules.map((m) => m.name)).toEqual(['@zkts/opentelemetry', '@zkts/protocol', '@zkts/recipes', '@zkts/sasl-kerberos', '@zkts/server', '@zkts/testkit']);
    for (const m of modules) {
      expect(text(m.readme), `${m.name}'s page is its README`).toMatch(new RegExp(`^# ${m.name}\\n`));
      expect(text(m.comment?.summary).length, `${m.name} has a description`).toBeGreaterThan(40);
    }
    const protocol = modules.find((m) => m.name === '@zkts/protocol')?.children?.filter((c) => c.kind === MODULE) ?? [];
    expect(protocol.map((m) => m.name)).toEqual(['@zkts/protocol/codec', '@zkts/protocol/inspect']);
    for (const m of protocol) expect(text(m.comment?.summary).length, `${m.name} has a description`).toBeGreaterThan(40);
    // The client entry's exports are the package's own, not a sub-module's.
    expect(modules.find((m) => m.name === '@zkts/protocol')?.children?.map((c) => c.name)).toEqual(expect.arrayContaining(['connect', 'ZkClient']));
  });

  it('opens on an index page that introduces every package', () => {
    const index = text(api.readme);
    for (const name of ['@zkts/protocol', '@zkts/recipes', '@zkts/server', '@zkts/testkit', '@zkts/opentelemetry', '@zkts/sasl-kerberos']) expect(index).toContain(name);
  });

  it('leaves out what the packages export only for each other', () => {
    const names = new Set(all(api).map((r) => r.name));
    for (const internal of ['isBrandedInstance', 'raceCancel', 'abortErrorFrom', 'CuratorQueueBase', 'BaseCache', 'FairLock', 'QueueLock']) {
      expect(names.has(internal), internal).toBe(false);
    }
  });

  it('shows an @example on every main class and function', () => {
    const byName = new Map(all(api).map((r) => [r.name, r]));
    const missing = MAIN_API.filter((name) => !blockTags(byName.get(name) ?? { name, kind: 0 }).includes('@example'));
    expect(missing).toEqual([]);
  });

  it('fails on an export without a doc comment', async () => {
    const pkg = join(scratch, 'undocumented');
    mkdirSync(join(pkg, 'src'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@zkts/undocumented', version: '0.0.0', type: 'module' }));
    writeFileSync(join(pkg, 'README.md'), '# @zkts/undocumented\n');
    writeFileSync(join(pkg, 'src/index.ts'), '/** Documented. */\nexport const documented = 1;\nexport function undocumented(): void {}\n');
    writeFileSync(join(pkg, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', strict: true }, include: ['src'] }));
    // The repository's options, with only what to document swapped for the fixture.
    const options = { extends: [join(repoRoot, 'typedoc.json')], entryPoints: [pkg], packagesRequiringDocumentation: ['@zkts/undocumented'] };
    writeFileSync(join(scratch, 'typedoc.json'), JSON.stringify(options));
    const res = await run(typedoc, ['--options', join(scratch, 'typedoc.json'), '--emit', 'none'], { cwd: scratch });
    expect(stripVTControlCharacters(res.stdout + res.stderr)).toMatch(/undocumented \(CallSignature\).*does not have any documentation/);
    expect(res.code).not.toBe(0);
  }, 120_000);
});
