// The installed entry point: bin/zkts.js runs the build (dist/), which scripts/setup.sh makes with `pnpm -r build`
// before any test runs (other CLI tests run it too when the build is fresh, the sources through tsx otherwise);
// and `pnpm zkts`, the way the README runs it from a checkout.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { beforeAll, describe, expect, it } from 'vitest';

import { REPO_ROOT, sharedServer } from '../support/cli.js';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/zkts.js', import.meta.url));
const DIST_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

beforeAll(() => {
  if (!existsSync(DIST_MAIN)) throw new Error(`${DIST_MAIN} is missing: build first (bash scripts/setup.sh, or pnpm -r build)`);
});

describe('bin/zkts.js', () => {
  it('runs the built CLI: help, a server command, and exit codes', async () => {
    const help = await run(process.execPath, [BIN, '--help']);
    expect(help.stdout).toMatch(/^usage: zkts \[OPTIONS\] COMMAND/);
    const ruok = await run(process.execPath, [BIN, '--server', sharedServer(), 'ruok']);
    expect(ruok.stdout).toBe('imok\n');
    const missing = await run(process.execPath, [BIN, '--server', sharedServer(), 'stat', '/definitely/not/here']).catch((error: { code: number; stderr: string }) => error);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/NO_NODE/) });
  });

  it('runs as `pnpm zkts` from the repository, in the directory it was typed in', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const env = { ...process.env, ZKTS_SERVER: '' };
    const quiet = await run('pnpm', ['--silent', 'zkts', '--version'], { cwd: REPO_ROOT, env });
    expect(quiet.stdout).toBe(`zkts ${version}\n`);
    const loud = await run('pnpm', ['zkts', '--server', sharedServer(), 'ruok'], { cwd: REPO_ROOT, env });
    expect(loud.stdout).toMatch(/\nimok\n$/);
    // From a subdirectory (-w: the workspace root's script), a relative path is the user's, not the root's.
    const cli = fileURLToPath(new URL('../..', import.meta.url));
    const decoded = await run('pnpm', ['-w', '--silent', 'zkts', 'decode', 'test/fixtures/java-client-session.json'], { cwd: cli, env });
    expect(decoded.stdout).toMatch(/^#0 open/);
  });
});
