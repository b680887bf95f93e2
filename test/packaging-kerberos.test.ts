// @zkts/sasl-kerberos packed as a user gets it, checked like the other packages (packaging.test.ts) by publint
// --strict and attw, and its manifest carries what every package's does. It is not installed into the scratch
// project there: its `kerberos` dependency is a native module that an offline install cannot fetch or build.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { repoRoot } from './support/doc-blocks.js';
import { attw, publint, run } from './support/packaging.js';

const dir = join(repoRoot, 'packages/sasl-kerberos');
const manifest = (pkg: string): Record<string, unknown> => JSON.parse(readFileSync(join(repoRoot, 'packages', pkg, 'package.json'), 'utf8')) as Record<string, unknown>;
const scratch = mkdtempSync(join(tmpdir(), 'zkts-packaging-kerberos-'));
let tarball = '';

describe('@zkts/sasl-kerberos packed', () => {
  beforeAll(async () => {
    const built = statSync(join(dir, 'dist/index.js'), { throwIfNoEntry: false });
    if (!built) throw new Error('packages/sasl-kerberos/dist is missing: run `pnpm -r run build` first');
    const res = await run('pnpm', ['pack', '--pack-destination', scratch], { cwd: dir, env: { ...process.env, npm_config_ignore_scripts: 'true' } });
    tarball = res.stdout.trim().split('\n').at(-1) ?? '';
    if (res.code !== 0 || !tarball.endsWith('.tgz')) throw new Error(`pnpm pack failed:\n${res.stderr}${res.stdout}`);
  }, 60_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('has a description, keywords, engines, repository, homepage and bugs like the other packages', () => {
    const own = manifest('sasl-kerberos');
    const protocol = manifest('protocol');
    expect(typeof own['description'] === 'string' && own['description'].length > 0).toBe(true);
    expect(Array.isArray(own['keywords']) && own['keywords'].length > 0).toBe(true);
    expect(own['engines']).toEqual(protocol['engines']);
    expect(own['repository']).toEqual({ ...(protocol['repository'] as object), directory: 'packages/sasl-kerberos' });
    expect(own['homepage']).toBe(String(protocol['homepage']).replace('packages/protocol', 'packages/sasl-kerberos'));
    expect(own['bugs']).toEqual(protocol['bugs']);
    expect(own['license']).toBe(protocol['license']);
  });

  it('carries its LICENSE and README', async () => {
    const list = await run('tar', ['tzf', tarball]);
    expect(list.stdout.split('\n')).toEqual(expect.arrayContaining(['package/LICENSE', 'package/README.md', 'package/package.json']));
  });

  it('publint --strict and attw (ESM-only profile) find nothing', async () => {
    const [lint, types] = await Promise.all([publint(tarball), attw(tarball)]);
    expect(lint.code, `${lint.stdout}${lint.stderr}`).toBe(0);
    expect(types.code, `${types.stdout}${types.stderr}`).toBe(0);
  });
});
