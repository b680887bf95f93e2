// The Tree view at scale, on its own ZooKeeper (a 4 MiB jute.maxbuffer, so a node can hold 1 MiB of data and a
// 100,000-name child list fits a reply): the first rows of a 100,000-children node paint within a second, the
// list keeps under 200 rows in the DOM while scrolling to the last child, and 1 MiB of data shows as text and
// hex within seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { connect, type ZkClient } from '@zkts/protocol';
import { startZooKeeper, type ZooKeeperServer } from '@zkts/testkit';

import { keepScreenshot, launchBrowser, openConsole, startTestConsole, type TestConsole } from '../../support/browser.js';
import { armShown, childShown, guardPage, openTree, shownAt, shownNames, until } from '../../support/tree-page.js';

const MAX_BUFFER = 4 * 1024 * 1024;
const CHILDREN = 100_000;
const name = (i: number): string => `c${String(i).padStart(6, '0')}`;

let zk: ZooKeeperServer;
let browser: Browser;
let tc: TestConsole;
let writer: ZkClient;

beforeAll(async () => {
  [zk, browser] = await Promise.all([startZooKeeper({ tickTime: 500, systemProperties: { 'jute.maxbuffer': MAX_BUFFER }, heap: '512m' }), launchBrowser()]);
  tc = await startTestConsole(zk.connectString, {}, { maxPacket: MAX_BUFFER });
  writer = await connect(zk.connectString, { maxPacket: MAX_BUFFER });
}, 180_000);
afterAll(async () => {
  await writer?.close();
  await browser?.close();
  await tc?.close();
  await zk?.[Symbol.asyncDispose]();
});

/** ms from setting the hash until `check` holds, measured in the page (performance.now, checked every frame). */
function timeInPage(page: Page, hash: string, firstName: string): Promise<number> {
  return page.evaluate(
    `new Promise((resolve) => {
      const t0 = performance.now();
      location.hash = ${JSON.stringify(hash)};
      const check = () => {
        const first = document.querySelector('[data-testid="child-list"] [data-testid="child-name"]');
        if (first !== null && first.textContent === ${JSON.stringify(firstName)}) resolve(performance.now() - t0);
        else requestAnimationFrame(check);
      };
      check();
    })`,
  );
}

describe('tree at scale', () => {
  it('opens a node of 100,000 children fast: first rows within a second, the last by scrolling, few rows in the DOM', async () => {
    const parent = '/wide';
    await writer.create(parent);
    const started = Date.now();
    const inFlight = 2000;
    for (let from = 0; from < CHILDREN; from += inFlight) {
      const batch: Promise<unknown>[] = [];
      for (let i = from; i < Math.min(CHILDREN, from + inFlight); i++) batch.push(writer.create(`${parent}/${name(i)}`));
      await Promise.all(batch);
    }
    const createMs = Date.now() - started;
    expect((await writer.exists(parent))?.numChildren).toBe(CHILDREN);

    const page = await openConsole(browser, tc.console);
    const guard = guardPage(page);
    await openTree(page, '#/tree/');
    const firstPaintMs = await timeInPage(page, `#/tree${parent}`, name(0));
    expect(firstPaintMs).toBeLessThanOrEqual(1000);
    expect(await page.textContent('[data-testid="child-count"]')).toBe('100,000 children');
    await keepScreenshot(page, 'tree-100k');

    // A second opening is served from the cached sorted list.
    await page.evaluate('location.hash = "#/tree/"');
    await page.waitForSelector('[data-testid="node-path"]:text-is("/")');
    const warmMs = await timeInPage(page, `#/tree${parent}`, name(0));

    const scrolled = Date.now();
    await page.$eval('[data-testid="child-list"]', (list) => {
      list.scrollTop = list.scrollHeight;
    });
    await until('the last child', async () => (await shownNames(page)).includes(name(CHILDREN - 1)), 5000);
    const lastMs = Date.now() - scrolled;
    const rows = await page.$$eval('[data-testid="child-list"] .vrow', (elements) => elements.length);
    expect(rows).toBeGreaterThan(10);
    expect(rows).toBeLessThan(200);
    // The middle, by scrolling half way: names in order, no gaps.
    await page.$eval('[data-testid="child-list"]', (list) => {
      list.scrollTop = list.scrollHeight / 2;
    });
    await until('the middle children', async () => (await shownNames(page)).includes(name(CHILDREN / 2)), 5000);
    const middle = await shownNames(page);
    expect(middle).toEqual(middle.map((_, i) => name(Number(middle[0]!.slice(1)) + i)));
    expect(guard.errors, guard.failedResponses.join('\n')).toEqual([]);
    console.log(`100k: created in ${createMs} ms; first paint ${firstPaintMs.toFixed(0)} ms (cold), ${warmMs.toFixed(0)} ms (cached); last child after scrolling in ${lastMs} ms; ${rows} rows in the DOM`);
    await page.close();
  });

  it('shows 1 MiB of data as text and as hex within seconds', async () => {
    const big = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = 0x20 + (i % 95);
    big.write('<script>window.__pwned=1</script>', 0);
    big[big.length - 1] = 0xff;
    await writer.create('/big', big);
    const page = await openConsole(browser, tc.console);
    const guard = guardPage(page);
    await openTree(page, '#/tree/');

    let started = Date.now();
    await page.evaluate('location.hash = "#/tree/big"');
    await page.waitForSelector('[data-testid="data-text"]', { timeout: 5000 });
    const textMs = Date.now() - started;
    expect(await page.textContent('[data-testid="stat-data-length"]')).toBe('1.00 MiB (1,048,576 B)');
    expect((await page.textContent('[data-testid="data-text"]'))?.startsWith('<script>window.__pwned=1</script>')).toBe(true);
    await page.waitForSelector('[data-testid="invalid-utf8"]');

    started = Date.now();
    await page.click('[data-testid="show-all-text"]');
    await until('all the text', async () => (await page.$eval('[data-testid="data-text"]', (e) => e.textContent?.length ?? 0)) === big.length, 5000);
    const allTextMs = Date.now() - started;

    started = Date.now();
    await page.click('[data-testid="data-mode-hex"]');
    await page.waitForSelector('[data-testid="hex-line"]', { timeout: 5000 });
    const hexMs = Date.now() - started;
    expect(await page.textContent('[data-testid="hex-line"]')).toBe('000000003c 73 63 72 69 70 74 3e  77 69 6e 64 6f 77 2e 5f<script>window._');
    await page.$eval('[data-testid="data-hex"]', (dump) => {
      dump.scrollTop = dump.scrollHeight;
    });
    await until('the last hex line', async () => (await page.$$eval('[data-testid="hex-line"]', (lines) => lines.map((l) => l.textContent ?? ''))).some((l) => l.startsWith('000ffff0')));
    const hexRows = await page.$$eval('[data-testid="hex-line"]', (lines) => lines.length);
    expect(hexRows).toBeLessThan(200);
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(guard.dialogs).toEqual([]);
    expect(guard.errors, guard.failedResponses.join('\n')).toEqual([]);
    console.log(`1 MiB: text in ${textMs} ms, all of it in ${allTextMs} ms, hex in ${hexMs} ms (${hexRows} lines in the DOM)`);
    await page.close();
  });

  it('follows changes again after the server restarts (the watch is re-armed and the page reads again)', async () => {
    await writer.create('/restart');
    const page = await openConsole(browser, tc.console);
    const guard = guardPage(page);
    await openTree(page, '#/tree/restart');
    await until('the empty list', async () => (await page.textContent('[data-testid="child-count"]')) === '0 children');
    // Every status the badge shows from now on.
    await page.evaluate(`{
      const badge = document.querySelector('[data-testid="live-state"]');
      window.__statuses = [];
      new MutationObserver(() => window.__statuses.push(badge.textContent)).observe(badge, { childList: true, characterData: true, subtree: true });
    }`);
    await zk.restart();
    await writer.connected();
    await until('the page to be live again', async () => (await page.textContent('[data-testid="live-state"]')) === 'live', 60_000);
    const statuses = (await page.evaluate('window.__statuses')) as string[];
    expect(statuses.some((s) => s !== 'live'), statuses.join(', ')).toBe(true);
    await armShown(page, 'after', childShown('after'));
    const started = Date.now();
    await writer.create('/restart/after');
    const shownMs = (await shownAt(page, 'after')) - started;
    console.log(`restart: the page showed ${statuses.join(' → ')}; a change after the restart shown in ${shownMs} ms`);
    expect(shownMs).toBeLessThanOrEqual(2000);
    expect(guard.errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    await page.close();
  }, 120_000);
});
