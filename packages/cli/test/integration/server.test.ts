// `zkts server` as a user runs it: the built bin (bin/zkts.js → dist/), a zkts client against the connect string
// it prints, and Ctrl-C (SIGINT) or SIGTERM closing it with exit code 0.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { connect } from '@zkts/protocol';

import { BIN, collect, REPO_ROOT, waitForOutput } from '../support/cli.js';

const DIST_COMMAND = fileURLToPath(new URL('../../dist/commands/server.js', import.meta.url));

function startBin(args: readonly string[]): ReturnType<typeof collect> & { child: ReturnType<typeof spawn> } {
  const child = spawn(process.execPath, [BIN, 'server', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return { child, ...collect(child) };
}

beforeAll(() => {
  if (!existsSync(DIST_COMMAND)) throw new Error(`${DIST_COMMAND} is missing: build first (pnpm -r run build)`);
});

describe('zkts server', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`prints its connect string, serves a client, and exits 0 on ${signal}`, async () => {
      const run = startBin(['--port', '0']);
      try {
        const [, connectString = ''] = await waitForOutput(run.stdout, /^(127\.0\.0\.1:\d+)\n/);
        // stderr is another pipe: its line may land after stdout's, so wait for it rather than read it now.
        await waitForOutput(run.stderr, /in memory/);
        const zk = await connect(connectString);
        try {
          await zk.create('/from-the-cli-server', 'hello');
          expect((await zk.getData('/from-the-cli-server')).data.toString()).toBe('hello');
        } finally {
          await zk.close();
        }
        run.child.kill(signal);
        const result = await run.done;
        expect(result, result.stderr).toMatchObject({ code: 0, signal: null });
      } finally {
        run.child.kill('SIGKILL');
      }
    });
  }

  it('closes open sessions on SIGINT and still exits 0', async () => {
    const run = startBin(['--port', '0', '--host', '127.0.0.1']);
    try {
      const [, connectString = ''] = await waitForOutput(run.stdout, /^(127\.0\.0\.1:\d+)\n/);
      const zk = await connect(connectString);
      await zk.create('/open', '');
      run.child.kill('SIGINT');
      expect(await run.done).toMatchObject({ code: 0 });
      await zk.close().catch(() => undefined);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('fails with exit code 69 (unavailable) when the port is taken', async () => {
    const first = startBin(['--port', '0']);
    try {
      const [, port = ''] = await waitForOutput(first.stdout, /^127\.0\.0\.1:(\d+)\n/);
      const second = await startBin(['--port', port]).done;
      expect(second.code).toBe(69);
      expect(second.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+/);
    } finally {
      first.child.kill('SIGINT');
      await first.done;
    }
  });

  it('passes --data-dir on to the server and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zkts-server-data-'));
    const run = startBin(['--port', '0', '--data-dir', dir]);
    try {
      await waitForOutput(run.stdout, /^127\.0\.0\.1:\d+\n/);
      await waitForOutput(run.stderr, new RegExp(`data dir ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      run.child.kill('SIGTERM');
      expect((await run.done).code).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a bad port as a usage error', async () => {
    const bad = await startBin(['--port', '70000']).done;
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/--port/);
  });
});
