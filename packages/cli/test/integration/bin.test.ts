// The installed entry point: bin/zkts.js runs the build (dist/), which scripts/setup.sh makes with `pnpm -r build`
// before any test runs. (Every other CLI test runs the sources through tsx.)
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { beforeAll, describe, expect, it } from 'vitest';

import { sharedServer } from '../helpers/cli.js';

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
});
