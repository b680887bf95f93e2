/**
 * The Sessions, Traffic and History views in a real browser over real ZooKeeper 3.8: our own servers, so the
 * sessions, watches and transactions on the page are exactly the ones these tests made (one whitelisting every
 * four-letter word, with a dataDir the History view reads; one answering only srvr).
 */
import { createClient, type ZkClient } from '@zkts/protocol';
import { startFaultProxy, startZooKeeper, type ZooKeeperServer } from '@zkts/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { keepScreenshot, launchBrowser, openConsole, startTestConsole, type TestConsole } from '../../support/browser.js';
import { collect, spawnZkts, uniqueRoot, waitForOutput } from '../../support/cli.js';
import { until } from '../../support/wait.js';

let browser: Browser;
let server: ZooKeeperServer;
let limited: ZooKeeperServer;
const consoles: TestConsole[] = [];
const clients: ZkClient[] = [];
const hex = (v: bigint): string => `0x${v.toString(16)}`;

async function client(connectString: string): Promise<ZkClient> {
  const c = await createClient(connectString, { sessionTimeout: 20_000 }).connect();
  clients.push(c);
  return c;
}

async function consoleOn(connectString: string, options: Parameters<typeof startTestConsole>[1] = {}): Promise<TestConsole> {
  const started = await startTestConsole(connectString, options);
  consoles.push(started);
  return started;
}

/** The texts of every element matching `selector` inside `scope`. */
function texts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).allTextContents();
}

beforeAll(async () => {
  // Short ticks and a fast container check: a session expires and an empty container is reaped within seconds.
  const fast = { tickTime: 500, minSessionTimeout: 1000, maxSessionTimeout: 60_000, systemProperties: { 'znode.container.checkIntervalMs': 500 } };
  [browser, server, limited] = await Promise.all([launchBrowser(), startZooKeeper({ fourLetterWhitelist: '*', ...fast }), startZooKeeper({ fourLetterWhitelist: 'srvr' })]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(consoles.map((c) => c.close().catch(() => undefined)));
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all([server?.[Symbol.asyncDispose](), limited?.[Symbol.asyncDispose]()]);
});

describe('console Sessions view', () => {
  it('lists two clients with their ephemerals and watches, and the path both watch as the hottest', async () => {
    const root = uniqueRoot('ops-sessions');
    const a = await client(server.connectString);
    const b = await client(server.connectString);
    await a.create(root, null);
    await a.create(`${root}/hot`, Buffer.from('x'));
    const { path: member } = await a.create(`${root}/member-`, null, { mode: 'ephemeral-sequential' });
    await b.create(`${root}/lock`, null, { mode: 'ephemeral' });
    await a.getData(`${root}/hot`, { watch: true });
    await b.getData(`${root}/hot`, { watch: true });
    await b.exists(`${root}/lock`, { watch: true });

    const t = await consoleOn(server.connectString, { mntrEveryMs: 500 });
    const page = await openConsole(browser, t.console, '#/sessions/');
    const rowA = page.locator(`[data-testid="session-row"][data-session="${hex(a.sessionId)}"]`);
    const rowB = page.locator(`[data-testid="session-row"][data-session="${hex(b.sessionId)}"]`);
    await rowA.waitFor();
    await rowB.waitFor();
    expect(await rowA.locator('[data-testid="session-address"]').textContent()).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(await texts(page, `[data-session="${hex(a.sessionId)}"] [data-testid="session-ephemerals"] li`)).toEqual([member]);
    expect(await texts(page, `[data-session="${hex(b.sessionId)}"] [data-testid="session-ephemerals"] li`)).toEqual([`${root}/lock`]);
    expect(await rowA.locator('[data-testid="session-watches-count"]').textContent()).toBe('1');
    expect((await texts(page, `[data-session="${hex(b.sessionId)}"] [data-testid="session-watches"] li`)).sort()).toEqual([`${root}/hot`, `${root}/lock`]);

    const hot = page.locator(`[data-testid="hot-path"][data-path="${root}/hot"]`);
    expect(await hot.locator('[data-testid="hot-path-watchers"]').textContent()).toBe('2');
    // The hottest path is listed first.
    expect((await texts(page, '[data-testid="hot-path-path"]'))[0]).toBe(`${root}/hot`);
    expect(await page.locator('[data-testid="word-note"]').count()).toBe(0);

    // mntr is charted over time: the chart gains points as samples come in (sampled every 500 ms here).
    await until(async () => (await page.locator('[data-testid="mntr-zk_znode_count"] [data-testid="chart-point"]').count()) >= 2, 'two mntr samples charted', { timeout: 15_000 });
    expect(await page.locator(`[data-session="${hex(t.client.sessionId)}"] [data-testid="own-session"]`).count()).toBe(1);
    await rowA.locator('[data-testid="session-ephemerals-count"]').click();
    await keepScreenshot(page, 'sessions');
    // Live: a watch that fires leaves the list on the next refresh.
    await a.setData(`${root}/hot`, Buffer.from('y'));
    await until(async () => (await hot.count()) === 0, 'the fired watch leaves the hot paths', { timeout: 10_000 });
    await page.close();
  });

  it('says which words a server that whitelists only srvr refused, and what is missing because of it', async () => {
    const t = await consoleOn(limited.connectString, { mntrEveryMs: 500 });
    const page = await openConsole(browser, t.console, '#/sessions/');
    await page.locator('[data-testid="word-note"]').first().waitFor();
    for (const word of ['cons', 'wchc', 'wchp', 'dump']) {
      expect(await page.getAttribute(`[data-testid="word-${word}"]`, 'data-available'), word).toBe('false');
    }
    await until(async () => (await page.locator('[data-testid="word-mntr"]').count()) === 1, 'mntr refused too');
    const notes = await texts(page, '[data-testid="word-note"]');
    expect(notes.find((n) => n.startsWith('wchc'))).toMatch(/^wchc is not in the server's 4lw\.commands\.whitelist: the paths each session watches cannot be shown\./);
    expect(notes.find((n) => n.startsWith('cons'))).toMatch(/not in the server's 4lw\.commands\.whitelist/);
    expect(notes.some((n) => n.startsWith('mntr is not in the server'))).toBe(true);
    expect(await page.locator('[data-testid="no-sessions"]').count()).toBe(1);
    await page.close();
  });
});

describe('console Traffic view', () => {
  it('shows ops made through the proxy with their counts, charts with points and a herd factor of 3', async () => {
    const root = uniqueRoot('ops-traffic');
    const t = await consoleOn(server.connectString, { proxy: { host: '127.0.0.1', port: 0 } });
    const proxy = t.console.proxy;
    expect(proxy).toMatch(/^127\.0\.0\.1:\d+$/);
    const info = (await (await fetch(`${t.console.url.replace(/\/\?.*$/, '')}/api/info`, { headers: { authorization: `Token ${t.console.token}` } })).json()) as { proxy: string | null };
    expect(info.proxy).toBe(proxy);

    const [w1, w2, w3] = [await client(proxy ?? ''), await client(proxy ?? ''), await client(proxy ?? '')];
    if (w1 === undefined || w2 === undefined || w3 === undefined) throw new Error('three clients');
    const N = 7;
    await w1.create(root, null);
    for (let i = 0; i < N; i++) await w1.create(`${root}/n${i}`, Buffer.from(String(i)));
    for (let i = 0; i < N; i++) await w2.getData(`${root}/n${i}`);
    for (const w of [w1, w2, w3]) await w.getData(`${root}/n0`, { watch: true });
    await w1.setData(`${root}/n0`, Buffer.from('changed'));

    const page = await openConsole(browser, t.console, '#/traffic/');
    expect(await page.textContent('[data-testid="proxy-address"]')).toBe(proxy);
    const count = (op: string) => page.locator(`[data-testid="latency-row"][data-op="${op}"] [data-testid="latency-count"]`);
    // zkts creates with create2 (the reply carries the Stat).
    await until(async () => (await count('create2').count()) === 1 && (await count('create2').textContent()) === String(N + 1), `create2 counted ${N + 1} times`, { timeout: 10_000 });
    // getData: N plain reads by w2, plus the three watching reads.
    await until(async () => (await count('getData').textContent()) === String(N + 3), `getData counted ${N + 3} times`);
    expect(await page.locator('[data-testid="chart-rate"] [data-series="getData"] [data-testid="chart-point"]').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="chart-latency"] [data-testid="chart-point"]').count()).toBeGreaterThan(0);

    const change = page.locator('[data-testid="change-row"]', { has: page.locator('[data-testid="change-paths"]', { hasText: `${root}/n0` }) });
    await until(async () => (await change.count()) === 1, 'the change to n0 is listed');
    expect(await change.getAttribute('data-fanout')).toBe('3');
    for (const w of [w1, w2, w3]) expect(await page.locator(`[data-testid="timeline-row"][data-session="${hex(w.sessionId)}"]`).count()).toBe(1);
    expect(await page.locator('[data-testid="slow-row"]').count()).toBeGreaterThan(0);
    await keepScreenshot(page, 'traffic');
    await page.close();
  });
});

describe('console History view', () => {
  it('answers who deleted a node: filtered by its path, the delete with the deleting session; a path click filters', async () => {
    const root = uniqueRoot('ops-history');
    const writer = await client(server.connectString);
    const deleter = await client(server.connectString);
    await writer.create(root, null);
    await writer.create(`${root}/victim`, Buffer.from('precious'));
    await writer.create(`${root}/bystander`, null);
    await deleter.delete(`${root}/victim`);

    const t = await consoleOn(server.connectString, { dataDir: server.dataDir });
    const page = await openConsole(browser, t.console, `#/history/?path=${encodeURIComponent(root)}`);
    const rows = page.locator('[data-testid="txn-row"]');
    await until(async () => (await rows.count()) === 4, 'the four transactions under the root');
    const ops = await texts(page, '[data-testid="txn-op"]');
    expect(ops[0]).toBe('delete');
    expect(ops.slice(1)).toEqual([expect.stringMatching(/^create/), expect.stringMatching(/^create/), expect.stringMatching(/^create/)]);
    expect(await page.inputValue('[data-testid="history-path"]')).toBe(root);

    // Clicking the victim's path (on the delete's row) filters by it.
    await rows.first().locator('[data-testid="txn-path"]', { hasText: `${root}/victim` }).click();
    await until(async () => (await rows.count()) === 2, 'only the victim\'s transactions');
    expect(await page.inputValue('[data-testid="history-path"]')).toBe(`${root}/victim`);
    expect(page.url()).toContain(`#/history/?path=${encodeURIComponent(`${root}/victim`)}`);
    const newest = rows.first();
    expect(await newest.locator('[data-testid="txn-op"]').textContent()).toBe('delete');
    expect(await newest.locator('[data-testid="txn-session"]').textContent()).toBe(hex(deleter.sessionId));
    expect(await rows.nth(1).locator('[data-testid="txn-session"]').textContent()).toBe(hex(writer.sessionId));
    await keepScreenshot(page, 'history');

    // Paging: three at a time (the hash may set the page size), the older page appended below.
    await page.goto(`${t.console.url.replace(/\/\?.*$/, '/')}#/history/?path=${encodeURIComponent(root)}&limit=3`);
    await until(async () => (await rows.count()) === 3, 'a first page of three');
    expect(await page.locator('[data-testid="history-end"]').count()).toBe(0);
    await page.click('[data-testid="history-older"]');
    await until(async () => (await rows.count()) === 4, 'the older page appended');
    expect(await texts(page, '[data-testid="txn-op"]')).toEqual(ops);
    await page.locator('[data-testid="history-end"]').waitFor();

    // Filtering by the deleting session through the form.
    await page.fill('[data-testid="history-path"]', '');
    await page.fill('[data-testid="history-session"]', hex(deleter.sessionId));
    await page.click('[data-testid="history-apply"]');
    // Its own createSession is in the log too.
    await until(async () => (await texts(page, '[data-testid="txn-op"]')).join(',') === 'delete,createSession', 'the deleter did one delete');
    await page.close();
  });

  it('marks what the server deleted itself: an ephemeral gone with its expired session, an emptied container', async () => {
    const root = uniqueRoot('ops-expiry');
    const owner = await client(server.connectString);
    await owner.create(root, null);
    await owner.create(`${root}/box`, null, { mode: 'container' });
    await owner.create(`${root}/box/item`, null);
    // A client behind a proxy that goes silent: the server expires its session and deletes its ephemeral.
    const proxy = await startFaultProxy({ host: server.host, port: server.port });
    const doomed = await createClient(proxy.connectString, { sessionTimeout: 1000 }).connect();
    await doomed.create(`${root}/eph`, null, { mode: 'ephemeral' });
    const doomedSession = hex(doomed.sessionId);
    proxy.blackhole();
    await owner.delete(`${root}/box/item`);

    const t = await consoleOn(server.connectString, { dataDir: server.dataDir });
    const page = await openConsole(browser, t.console, `#/history/?path=${encodeURIComponent(`${root}/eph`)}`);
    const first = page.locator('[data-testid="txn-row"]').first();
    const refresh = page.locator('[data-testid="history-refresh"]');
    await until(async () => {
      if ((await first.getAttribute('data-op')) === 'closeSession') return true;
      await refresh.click();
      return false;
    }, 'the expired session\'s closeSession', { timeout: 20_000, every: 300 });
    expect(await first.locator('[data-testid="txn-by"]').textContent()).toBe('by expiry');
    expect(await first.locator('[data-testid="txn-session"]').textContent()).toBe(doomedSession);

    await page.fill('[data-testid="history-path"]', `${root}/box`);
    await page.click('[data-testid="history-apply"]');
    await until(async () => {
      if ((await first.getAttribute('data-op')) === 'deleteContainer') return true;
      await refresh.click();
      return false;
    }, 'the container reaped', { timeout: 20_000, every: 300 });
    expect(await first.locator('[data-testid="txn-by"]').textContent()).toBe('by reaper');
    await page.close();
    await proxy.close();
    await doomed.close().catch(() => undefined);
  });

  it('answers UNAVAILABLE without --proxy or --data-dir, and BAD_REQUEST for a malformed parameter', async () => {
    const t = await consoleOn(server.connectString);
    const base = t.console.url.replace(/\/\?.*$/, '');
    const get = async (path: string): Promise<{ status: number; code: unknown }> => {
      const response = await fetch(`${base}${path}`, { headers: { authorization: `Token ${t.console.token}` } });
      const body = (await response.json()) as { error?: { code?: unknown } };
      return { status: response.status, code: body.error?.code };
    };
    expect(await get('/api/traffic')).toEqual({ status: 409, code: 'UNAVAILABLE' });
    expect(await get('/api/history')).toEqual({ status: 409, code: 'UNAVAILABLE' });
    const withDir = await consoleOn(server.connectString, { dataDir: server.dataDir });
    const dirBase = withDir.console.url.replace(/\/\?.*$/, '');
    for (const query of ['limit=0', 'limit=x', 'before=12z', 'session=bob', 'path=relative']) {
      const response = await fetch(`${dirBase}/api/history?${query}`, { headers: { authorization: `Token ${withDir.console.token}` } });
      expect(response.status, query).toBe(400);
      expect(await response.json(), query).toMatchObject({ error: { code: 'BAD_REQUEST' } });
    }
  });
});

describe('zkts console --proxy', () => {
  it('prints the proxy address it listens on, and Info.proxy is that address', { timeout: 90_000 }, async () => {
    const child = spawnZkts(['--server', server.connectString, 'console', '--port', '0', '--proxy', '0']);
    const output = collect(child);
    try {
      const [url] = await waitForOutput(output.stdout, /^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m, 60_000);
      const [, proxy] = await waitForOutput(output.stderr, /decoding proxy on (127\.0\.0\.1:\d+)/);
      const parsed = new URL(url);
      const info = await fetch(`${parsed.origin}/api/info?token=${parsed.searchParams.get('token')}`);
      expect(await info.json()).toMatchObject({ proxy });
      // And the proxy forwards: a client connected through it works.
      const through = await createClient(proxy ?? '', { sessionTimeout: 20_000 }).connect();
      expect((await through.exists('/'))?.numChildren).toBeGreaterThan(0);
      await through.close();
    } finally {
      child.kill('SIGTERM');
      await output.done;
    }
  });
});
