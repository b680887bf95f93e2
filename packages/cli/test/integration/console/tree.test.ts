// The Tree view against the shared real ZooKeeper: the read API (paged sorted children, node, search, path
// checks), the live event stream (including its bound), and the page in chromium: live updates made by another
// client, hostile names and data rendered as text, search by prefix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { connect, type ZkClient } from '@zkts/protocol';

import type { ChildrenPage, NodeInfo, SearchResult } from '../../../src/console/api-types.js';
import { ChangeHub, type ChangeListener } from '../../../src/console/change-hub.js';
import { startConsoleServer } from '../../../src/console/http-server.js';
import { eventsRoutes } from '../../../src/console/routes/events.js';
import { defaultAssetsDir } from '../../../src/console/static-assets.js';
import { sharedServer, uniqueRoot } from '../../support/cli.js';
import { keepScreenshot, launchBrowser, openConsole, startTestConsole, type TestConsole } from '../../support/browser.js';
import { armShown, childShown, guardPage, openTree, shownAt, shownNames, until } from '../../support/tree-page.js';

const server = sharedServer();
let browser: Browser;
let tc: TestConsole;
let other: ZkClient;
const root = uniqueRoot('console-tree');

beforeAll(async () => {
  browser = await launchBrowser();
  tc = await startTestConsole(server);
  other = await connect(server);
  await other.create(root);
});
afterAll(async () => {
  await other?.removeRecursive(root).catch(() => undefined);
  await other?.close();
  await browser?.close();
  await tc?.close();
});

async function api<T>(path: string, params: Record<string, string | number>): Promise<{ status: number; body: T }> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  const response = await fetch(`http://127.0.0.1:${tc.console.port}${path}?${query}`, { headers: { authorization: `Token ${tc.console.token}` } });
  return { status: response.status, body: (await response.json()) as T };
}

/** Reads an SSE stream's text as it comes, until `done` says so. */
async function readEvents(port: number, token: string, done: (text: string) => boolean, onOpen: () => Promise<void>): Promise<string> {
  const aborter = new AbortController();
  const response = await fetch(`http://127.0.0.1:${port}/api/events`, { headers: { authorization: `Token ${token}` }, signal: aborter.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let opened = false;
  const deadline = Date.now() + 10_000;
  try {
    while (!done(text) && Date.now() < deadline) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      text += decoder.decode(value, { stream: true });
      if (!opened && text.includes('event: state')) {
        opened = true;
        await onOpen();
      }
    }
  } finally {
    aborter.abort();
  }
  return text;
}

describe('tree API', () => {
  it('pages the sorted children with a name prefix; reads a node; refuses malformed paths and limits', async () => {
    const parent = `${root}/api`;
    await other.create(parent, Buffer.from('{"a":1}'));
    await other.multi(['b', 'ab', 'c', 'a'].map((name) => ({ op: 'create', path: `${parent}/${name}` }) as const));

    const first = await api<ChildrenPage>('/api/children', { path: parent, limit: 2 });
    expect(first.body).toMatchObject({ path: parent, total: 4, offset: 0, names: ['a', 'ab'] });
    expect((await api<ChildrenPage>('/api/children', { path: parent, offset: 2, limit: 2 })).body.names).toEqual(['b', 'c']);
    expect((await api<ChildrenPage>('/api/children', { path: parent, prefix: 'a' })).body).toMatchObject({ total: 2, names: ['a', 'ab'] });
    // A change moves the cversion: the cached list is read again.
    await other.create(`${parent}/aa`);
    const after = await api<ChildrenPage>('/api/children', { path: parent, prefix: 'a' });
    expect(after.body).toMatchObject({ total: 3, names: ['a', 'aa', 'ab'] });
    expect(after.body.cversion).toBeGreaterThan(first.body.cversion);

    const node = await api<NodeInfo>('/api/node', { path: parent });
    expect(node.status).toBe(200);
    expect(Buffer.from(node.body.data, 'base64').toString()).toBe('{"a":1}');
    expect(node.body.stat).toMatchObject({ numChildren: 5, ephemeralOwner: '0x0', dataLength: 7 });
    expect(node.body.stat.czxid).toMatch(/^0x[0-9a-f]+$/);
    expect(node.body.acl).toEqual([{ scheme: 'world', id: 'anyone', perms: 'cdrwa' }]);

    for (const [path, params] of [
      ['/api/children', { path: 'no-slash' }],
      ['/api/children', { path: `${parent}/` }],
      ['/api/children', { path: parent, limit: 1001 }],
      ['/api/children', { path: parent, offset: -1 }],
      ['/api/node', { path: `${parent}/\u0001` }],
      ['/api/search', { prefix: 'relative' }],
    ] as const) {
      const reply = await api<{ error: { code: string } }>(path, params);
      expect(reply.status, JSON.stringify(params)).toBe(400);
      expect(reply.body.error.code).toBe('BAD_REQUEST');
    }
    const missing = await api<{ error: { code: string } }>('/api/node', { path: `${parent}/nope` });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'NO_NODE']);

    const search = await api<SearchResult>('/api/search', { prefix: `${parent}/a`, limit: 2 });
    expect(search.body).toEqual({ prefix: `${parent}/a`, paths: [`${parent}/a`, `${parent}/aa`], truncated: true });
    // Past a missing node: the nearest existing parent's children that start like the missing one.
    const nearest = await api<SearchResult>('/api/search', { prefix: `${parent}/ax/y` });
    expect(nearest.body.paths).toEqual([]);
    const nearest2 = await api<SearchResult>('/api/search', { prefix: `${parent}/c/q` });
    expect(nearest2.body.paths).toEqual([]);
  });

  it('streams changes as batched SSE events; a page that falls behind gets one reset instead of a queue', async () => {
    const parent = `${root}/sse`;
    await other.create(parent);
    const normal = await readEvents(
      tc.console.port,
      tc.console.token,
      (text) => text.includes(`${parent}/two`),
      async () => {
        await other.create(`${parent}/one`);
        await other.setData(`${parent}/one`, Buffer.from('x'));
        await other.create(`${parent}/two`);
      },
    );
    const changes = normal
      .split('\n\n')
      .filter((block) => block.startsWith('event: change'))
      .flatMap((block) => (JSON.parse(block.slice(block.indexOf('data: ') + 6)) as { changes: unknown[] }).changes);
    expect(changes).toEqual(
      expect.arrayContaining([
        { type: 'created', path: `${parent}/one` },
        { type: 'data', path: `${parent}/one` },
        { type: 'created', path: `${parent}/two` },
      ]),
    );

    const small = await startConsoleServer({
      host: '127.0.0.1',
      port: 0,
      token: 't0ken',
      csrf: 'csrf',
      readOnly: true,
      routes: eventsRoutes({ client: tc.client, stream: { maxQueued: 5 } }),
      assetsDir: defaultAssetsDir(),
    });
    try {
      const flooded = await readEvents(
        small.port,
        't0ken',
        (text) => text.includes('event: reset'),
        async () => {
          await other.multi(Array.from({ length: 100 }, (_, i) => ({ op: 'create', path: `${parent}/flood-${i}` }) as const));
        },
      );
      expect(flooded).toContain('event: reset');
      expect(flooded).not.toContain('flood-99');
    } finally {
      await small.close();
    }
  });
});

describe('change hub', () => {
  it('arms one watch while someone listens, and a listener right after the last one left still hears changes', async () => {
    const parent = `${root}/hub`;
    await other.create(parent);
    const client = await connect(server);
    try {
      const hub = new ChangeHub(client);
      const heard: string[] = [];
      const listener = (tag: string): ChangeListener => ({
        change: (type, path) => {
          if (path.startsWith(parent)) heard.push(`${tag} ${type} ${path}`);
        },
        reset: () => undefined,
        state: () => undefined,
      });
      const first = hub.subscribe(listener('a'));
      await hub.ready(5000);
      expect(hub.armed).toBe(true);
      await other.create(`${parent}/one`);
      await until('the first change', () => heard.includes(`a created ${parent}/one`));
      // The last listener leaves and another comes at once: its watch must outlive the old one's removal.
      first();
      expect(hub.armed).toBe(false);
      const second = hub.subscribe(listener('b'));
      await hub.ready(5000);
      expect(hub.armed).toBe(true);
      await other.setData(`${parent}/one`, Buffer.from('x'));
      await until('the change after re-arming', () => heard.includes(`b data ${parent}/one`));
      second();
      expect(heard.filter((h) => h.startsWith('a '))).toEqual([`a created ${parent}/one`]);
    } finally {
      await client.close();
    }
  });
});

describe('tree page', () => {
  it('shows a node another client creates within a second, a data change, and a deletion, without reloading', async () => {
    const live = `${root}/live`;
    await other.create(live, Buffer.from('v1'));
    await other.create(`${live}/existing`);
    const page = await openConsole(browser, tc.console);
    const guard = guardPage(page);
    await openTree(page, `#/tree${live}`);
    await until('the existing child', async () => (await shownNames(page)).includes('existing'));
    await page.evaluate('window.__sameDocument = true');

    // Each latency is from the call that makes the change to the moment the page's DOM shows it (see armShown).
    await armShown(page, 'created', childShown('fresh'));
    let started = Date.now();
    await other.create(`${live}/fresh`);
    const createdMs = (await shownAt(page, 'created')) - started;

    await armShown(page, 'data', `document.querySelector('[data-testid="data-text"]')?.textContent === 'v2 from another client'`);
    started = Date.now();
    await other.setData(live, Buffer.from('v2 from another client'));
    const dataMs = (await shownAt(page, 'data')) - started;

    // Shown when both the list and the node's stat (read separately) say so.
    await armShown(page, 'deleted', `!(${childShown('fresh')}) && document.querySelector('[data-testid="stat-children"]')?.textContent === '1'`);
    started = Date.now();
    await other.delete(`${live}/fresh`);
    const deletedMs = (await shownAt(page, 'deleted')) - started;
    console.log(`live: created shown in ${createdMs} ms, data in ${dataMs} ms, deletion in ${deletedMs} ms`);
    expect(createdMs).toBeLessThanOrEqual(1000);
    expect(dataMs).toBeLessThanOrEqual(1000);
    expect(deletedMs).toBeLessThanOrEqual(1000);

    // The node shown is deleted: the detail says so. Its reads now answer 404, and chromium logs each as a
    // console error (naming no URL), possibly after the page already shows the node missing: so the 404s may
    // only be this node's reads, and the console errors only those 404s, however late they come.
    expect(guard.errors, guard.failedResponses.join('\n')).toEqual([]);
    await armShown(page, 'missing', `document.querySelector('[data-testid="node-missing"]') !== null`);
    started = Date.now();
    await other.removeRecursive(live);
    const missingMs = (await shownAt(page, 'missing')) - started;
    expect(missingMs).toBeLessThanOrEqual(1000);

    // Same document throughout: no reload happened.
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    const encoded = encodeURIComponent(live);
    const readOfLive = (r: string): boolean =>
      r.startsWith('404 GET ') && (r.endsWith(`/api/node?path=${encoded}`) || r.includes(`/api/children?path=${encoded}&`));
    expect(guard.failedResponses.filter((r) => !readOfLive(r))).toEqual([]);
    expect(guard.errors.filter((e) => !e.includes('status of 404')), guard.failedResponses.join('\n')).toEqual([]);
    expect(guard.errors.length).toBeLessThanOrEqual(guard.failedResponses.length);
    await page.close();
  });

  it('renders hostile names and data as literal text and runs none of it', async () => {
    const hostile = `${root}/hostile`;
    const scriptData = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">';
    const names = [
      '"><img src=x onerror=window.__pwned=1>',
      '<script>alert(1)<', // with its child `script>`, the path reads <script>alert(1)</script>
      'zero\u200bwidth',
      'rtl\u202eoverride',
      'line\u2028separator',
      '&lt;b&gt;entity',
      "' onmouseover='window.__pwned=1",
    ];
    await other.create(hostile, Buffer.from(scriptData));
    for (const name of names) await other.create(`${hostile}/${name}`, Buffer.from(scriptData));
    await other.create(`${hostile}/<script>alert(1)</script>`);
    // ZooKeeper refuses C0/C1 control characters in names (PathUtils): the client says so before sending.
    for (const bad of ['ctl\u0001', 'del\u007f']) await expect(other.create(`${hostile}/${bad}`)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await other.create(`${hostile}/invalid-utf8`, Buffer.from([0x68, 0x69, 0xff, 0xfe, 0xc3, 0x28, 0x41]));
    const controlData = 'nul\u0000bell\u0007esc\u001b[31mred\u001b[0m\u007f';
    await other.create(`${hostile}/control`, Buffer.from(controlData));
    await other.create(`${hostile}/json`, Buffer.from('{"service":"orders","port":8080,"tags":["<b>x</b>"],"nested":{"ok":true}}'));

    const page = await openConsole(browser, tc.console);
    const guard = guardPage(page);
    await openTree(page, `#/tree${hostile}`);
    const expected = [...names, 'control', 'invalid-utf8', 'json'].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    await until('the hostile names', async () => (await shownNames(page)).length === expected.length);
    expect(await shownNames(page)).toEqual(expected);
    // Names with invisible or direction characters are flagged next to the name (which stays as it is).
    expect(await page.$$eval('[data-testid="child-hidden-chars"]', (marks) => marks.map((m) => m.textContent?.trim()))).toEqual(['⚠ U+2028', '⚠ U+202E', '⚠ U+200B']);
    expect(await page.textContent('[data-testid="data-text"]')).toBe(scriptData);
    await keepScreenshot(page, 'tree');

    // Each hostile child opens by clicking its row: its path shows as text, its data too.
    for (const name of names) {
      await page.locator('[data-testid="child-row"]', { has: page.locator('[data-testid="child-name"]', { hasText: name }) }).first().click();
      await until(`the node ${JSON.stringify(name)}`, async () => (await page.textContent('[data-testid="node-path"]').catch(() => null)) === `${hostile}/${name}`);
      await until('its data', async () => (await page.textContent('[data-testid="data-text"]').catch(() => null)) === scriptData);
      await page.goBack();
      await until('the list again', async () => (await page.textContent('[data-testid="node-path"]').catch(() => null)) === hostile);
    }
    await openTree(page, `#/tree${encodeURI(`${hostile}/<script>alert(1)</script>`).replace(/#/g, '%23')}`);
    await until('the nested script path', async () => (await page.textContent('[data-testid="node-path"]').catch(() => null)) === `${hostile}/<script>alert(1)</script>`);

    await openTree(page, `#/tree${hostile}/invalid-utf8`);
    await page.waitForSelector('[data-testid="invalid-utf8"]');
    expect(await page.textContent('[data-testid="data-text"]')).toBe('hi\ufffd\ufffd\ufffd(A');
    await page.click('[data-testid="data-mode-hex"]');
    await until('the hex dump', async () => ((await page.textContent('[data-testid="hex-line"]').catch(() => null)) ?? '').includes('68 69 ff fe c3 28 41'));
    // offset, bytes, ASCII column (each in its own span, so the text runs together)
    expect(await page.textContent('[data-testid="hex-line"]')).toBe('0000000068 69 ff fe c3 28 41hi...(A');
    await keepScreenshot(page, 'node-hex');

    // Control characters in data are text like any other: shown as they are, never interpreted.
    await openTree(page, `#/tree${hostile}/control`);
    await page.click('[data-testid="data-mode-text"]');
    await page.waitForSelector('[data-testid="control-chars"]');
    await until('the control data', async () => (await page.textContent('[data-testid="data-text"]').catch(() => null)) === controlData);

    await openTree(page, `#/tree${hostile}/json`);
    await page.click('[data-testid="data-mode-json"]');
    await page.waitForSelector('[data-testid="data-json"]');
    expect(await page.textContent('[data-testid="data-json"]')).toContain('"service": "orders"');
    await keepScreenshot(page, 'node-json');

    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(await page.evaluate('document.querySelectorAll("img").length')).toBe(0);
    expect(await page.evaluate('document.querySelectorAll("script").length')).toBe(1);
    expect(guard.dialogs).toEqual([]);
    expect(guard.errors, guard.failedResponses.join('\n')).toEqual([]);
    await page.close();
  });

  it('finds a deep node by its path prefix', async () => {
    const deep = `${root}/deep/a/b/c`;
    await other.mkdirp(deep);
    await other.create(`${deep}/target-node`, Buffer.from('found'));
    await other.create(`${deep}/other-node`);
    const page = await openConsole(browser, tc.console);
    const guard = guardPage(page);
    await openTree(page, '#/tree/');
    await page.fill('[data-testid="search-input"]', `${deep}/tar`);
    await until('one result', async () => (await page.$$('[data-testid="search-result"]')).length === 1);
    expect(await page.textContent('[data-testid="search-result"]')).toBe(`${deep}/target-node`);
    await page.click('[data-testid="search-result"]');
    await until('the found node', async () => (await page.textContent('[data-testid="node-path"]').catch(() => null)) === `${deep}/target-node`);
    expect(await page.textContent('[data-testid="data-text"]')).toBe('found');
    expect(guard.errors, guard.failedResponses.join('\n')).toEqual([]);
    await page.close();
  });

  it('times a change by the page: one made 1.5 s after arming reads 1.5 s; never or already shown is an error', async () => {
    const late = `${root}/late`;
    await other.create(late);
    const page = await openConsole(browser, tc.console);
    await openTree(page, `#/tree${late}`);
    await until('the empty list', async () => (await page.textContent('[data-testid="child-count"]')) === '0 children');
    await armShown(page, 'late child', childShown('child'));
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await other.create(`${late}/child`);
    expect((await shownAt(page, 'late child')) - started).toBeGreaterThanOrEqual(1500);
    await expect(armShown(page, 'shown before', childShown('child'))).rejects.toThrow(/already shows/);
    await armShown(page, 'never', childShown('never'));
    await expect(shownAt(page, 'never', 300)).rejects.toThrow(/did not show never within 300 ms/);
    await page.close();
  });

  it('reads the child list again when a change comes while its read is in flight, whose answer predates the change', async () => {
    const parent = `${root}/held`;
    await other.create(parent);
    await other.create(`${parent}/existing`);
    const page = await openConsole(browser, tc.console);
    await openTree(page, `#/tree${parent}`);
    await until('the existing child', async () => (await shownNames(page)).includes('existing'));

    // The next list read is answered by the server at once but handed to the page only when released.
    let answered!: () => void;
    const answeredNow = new Promise<void>((resolve) => (answered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    await page.route((url) => url.pathname === '/api/children', async (route) => {
      if (reads++ > 0) return route.continue();
      const response = await route.fetch();
      answered();
      await released;
      await route.fulfill({ response });
    });

    await other.create(`${parent}/first`);
    await answeredNow;
    await other.create(`${parent}/second`);
    // Time for the second change's event to reach the page while the first read is held: without a second read
    // the list would stay without `second` (what this test catches); with it the wait changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    release();
    await until('both new children', async () => {
      const names = await shownNames(page);
      return names.includes('first') && names.includes('second');
    });
    expect(await shownNames(page)).toEqual(['existing', 'first', 'second']);
    expect(reads).toBeGreaterThanOrEqual(2);
    await page.close();
  });
});
