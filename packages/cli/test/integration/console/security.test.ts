import { request } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';

import { sharedServer } from '../../support/cli.js';
import { launchBrowser, openConsole, startTestConsole, type TestConsole } from '../../support/browser.js';

const server = sharedServer();
let browser: Browser;
let open: TestConsole;
let readOnly: TestConsole;

beforeAll(async () => {
  browser = await launchBrowser();
  open = await startTestConsole(server);
  readOnly = await startTestConsole(server, { readOnly: true });
});
afterAll(async () => {
  await browser?.close();
  await open?.close();
  await readOnly?.close();
});

const base = (t: TestConsole): string => `http://127.0.0.1:${t.console.port}`;

/** node:http, because fetch will not send a Host header of the caller's choosing. */
function rawGet(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('console admission', () => {
  it('serves the page and the API with the token, and sets the cookie the page then uses', async () => {
    const page = await openConsole(browser, open.console);
    expect(await page.textContent('[data-testid="server"]')).toBe(server);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'zkts_console')).toMatchObject({ httpOnly: true, sameSite: 'Strict', value: open.console.token });
    const info = await page.evaluate(async () => (await fetch('/api/info')).json());
    expect(info).toMatchObject({ server, readOnly: false, session: { id: `0x${open.client.sessionId.toString(16)}` } });
    await page.close();
  });

  it('refuses every request without the token, or with a wrong one', async () => {
    for (const path of ['/', '/app.js', '/api/info', '/api/info?token=wrong']) {
      const response = await fetch(`${base(open)}${path}`);
      expect(response.status, path).toBe(401);
      await response.arrayBuffer();
    }
    const api = await fetch(`${base(open)}/api/info`);
    expect(await api.json()).toMatchObject({ error: { code: 'BAD_TOKEN' } });
  });

  it('refuses a Host header that is not its own (DNS rebinding)', async () => {
    const path = `/api/info?token=${open.console.token}`;
    const evil = await rawGet(open.console.port, path, { host: `evil.example:${open.console.port}` });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body)).toMatchObject({ error: { code: 'BAD_HOST' } });
    const own = await rawGet(open.console.port, path, { host: `localhost:${open.console.port}` });
    expect(own.status).toBe(200);
  });

  it('sends a Content-Security-Policy that allows only its own script', async () => {
    const response = await fetch(`${base(open)}/?token=${open.console.token}`);
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    await response.text();
  });
});
