// The Tree page's child list against the shared real ZooKeeper when a live change comes while the list's own
// read is still in flight: that read may have been answered before the change, so the list must read again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { connect, type ZkClient } from '@zkts/protocol';

import { sharedServer, uniqueRoot } from '../../support/cli.js';
import { launchBrowser, openConsole, startTestConsole, type TestConsole } from '../../support/browser.js';
import { openTree, shownNames, until } from '../../support/tree-page.js';

const server = sharedServer();
let browser: Browser;
let tc: TestConsole;
let other: ZkClient;
const root = uniqueRoot('console-live-list');

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

describe('child list', () => {
  it('reads again when a change comes while its read is in flight, whose answer predates the change', async () => {
    await other.create(`${root}/existing`);
    const page = await openConsole(browser, tc.console);
    await openTree(page, `#/tree${root}`);
    await until('the existing child', async () => (await shownNames(page)).includes('existing'));

    // The next list read is answered by the server at once but handed to the page only when released.
    let answered!: () => void;
    const answeredNow = new Promise<void>((resolve) => (answered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    await page.route(
      (url) => url.pathname === '/api/children',
      async (route) => {
        if (reads++ > 0) return route.continue();
        const response = await route.fetch();
        answered();
        await released;
        await route.fulfill({ response });
      },
    );

    await other.create(`${root}/first`);
    await answeredNow;
    await other.create(`${root}/second`);
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
