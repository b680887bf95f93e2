// The API reference is generated from the doc comments (typedoc.json; `pnpm run docs` writes docs/api), and
// the build fails on an exported declaration, method or accessor without one: every name a user can import
// from @zkts/protocol (and /codec, /inspect), @zkts/recipes and @zkts/testkit is documented. The second test
// shows the gate closes: the same options on a package with one undocumented export must fail.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

import { afterAll, describe, expect, it } from 'vitest';

import { repoRoot } from './support/doc-blocks.js';
import { run } from './support/packaging.js';

const typedoc = join(repoRoot, 'node_modules/.bin/typedoc');
const scratch = mkdtempSync(join(tmpdir(), 'zkts-typedoc-'));

describe('API reference', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('builds from the doc comments with nothing undocumented', async () => {
    const res = await run(typedoc, ['--options', 'typedoc.json', '--emit', 'none'], { cwd: repoRoot });
    expect(stripVTControlCharacters(res.stdout + res.stderr)).not.toMatch(/warning|error/i);
    expect(res.code).toBe(0);
  }, 120_000);

  it('fails on an export without a doc comment', async () => {
    const pkg = join(scratch, 'undocumented');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@zkts/undocumented', version: '0.0.0', type: 'module' }));
    writeFileSync(join(pkg, 'index.ts'), '/** Documented. */\nexport const documented = 1;\nexport function undocumented(): void {}\n');
    writeFileSync(join(pkg, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', strict: true }, include: ['index.ts'] }));
    // The repository's options, with only what to document swapped for the fixture.
    const options = { extends: [join(repoRoot, 'typedoc.json')], entryPoints: ['./index.ts'], tsconfig: './tsconfig.json', packagesRequiringDocumentation: ['@zkts/undocumented'] };
    writeFileSync(join(pkg, 'typedoc.json'), JSON.stringify(options));
    const res = await run(typedoc, ['--options', 'typedoc.json', '--emit', 'none'], { cwd: pkg });
    expect(stripVTControlCharacters(res.stdout + res.stderr)).toMatch(/undocumented \(CallSignature\).*does not have any documentation/);
    expect(res.code).not.toBe(0);
  }, 120_000);
});
