import { createServer } from 'node:net';

import { describe, expect, it } from 'vitest';

import { collect, sharedServer, spawnZkts, waitForOutput, zkts } from '../../support/cli.js';

const server = sharedServer();

describe('zkts console', { timeout: 120_000 }, () => {
  it('prints a URL with a token, serves the API with it, refuses it without, and exits 0 on SIGTERM', async () => {
    const child = spawnZkts(['--server', server, 'console', '--port', '0', '--read-only']);
    const output = collect(child);
    const [url] = await waitForOutput(output.stdout, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/m, 60_000);
    const parsed = new URL(url);
    const info = await fetch(`${parsed.origin}/api/info?token=${parsed.searchParams.get('token')}`);
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ server, readOnly: true, proxy: null, dataDir: null });
    const bare = await fetch(`${parsed.origin}/api/info`);
    expect(bare.status).toBe(401);
    await bare.text();
    expect(output.stderr()).toMatch(/zkts console: serving/);
    child.kill('SIGTERM');
    expect(await output.done).toMatchObject({ code: 0 });
  });

  it('says the port is in use instead of a stack trace', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await zkts(['--server', server, 'console', '--port', String(port)]);
      expect(result.code).toBe(64);
      expect(result.stderr).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use`));
    } finally {
      blocker.close();
    }
  });
});
