import { connect, Perms, type ZkClient } from '@zkts/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { keepScreenshot, launchBrowser, openConsole, startTestConsole, type TestConsole } from '../../support/browser.js';
import { sharedServer, uniqueRoot } from '../../support/cli.js';
import { until } from '../../support/wait.js';

const server = sharedServer();
const root = uniqueRoot('console-edit-ui');
let browser: Browser;
let open: TestConsole;
let readOnly: TestConsole;
let other: ZkClient;

beforeAll(async () => {
  other = await connect(server);
  await other.create(root);
  browser = await launchBrowser();
  open = await startTestConsole(server);
  readOnly = await startTestConsole(server, { readOnly: true });
});
afterAll(async () => {
  await browser?.close();
  await open?.close();
  await readOnly?.close();
  await other?.removeRecursive(root).catch(() => undefined);
  await other?.close();
});

const testid = (id: string): string => `[data-testid="${id}"]`;

/** Waits until the element's text is `text` (textContent of the first match; null while there is none). */
async function waitText(page: Page, id: string, text: string): Promise<void> {
  let seen: string | null = null;
  await until(async () => (seen = await page.locator(testid(id)).first().textContent({ timeout: 1000 }).catch(() => null)) === text, `${id} to read ${JSON.stringify(text)}`).catch(
    (error: Error) => {
      throw new Error(`${error.message}; it reads ${JSON.stringify(seen)}`);
    },
  );
}

async function openNode(console: TestConsole, path: string): Promise<Page> {
  const page = await openConsole(browser, console.console, `#/tree${path}`);
  await waitText(page, 'node-path', path);
  return page;
}

async function dataOf(path: string): Promise<string> {
  return (await other.getData(path)).data.toString();
}

describe('editing from the console page', () => {
  it('shows an edit conflict with theirs next to mine, and overwrites when asked', async () => {
    const path = `${root}/conflict`;
    await other.create(path, '{"replicas": 3}');
    const page = await openNode(open, path);
    await page.click(testid('action-edit'));
    expect(await page.inputValue(testid('edit-data'))).toBe('{"replicas": 3}');
    await page.fill(testid('edit-data'), '{"replicas": 5}');
    // Meanwhile another client changes the node; the page sees it live, the open editor keeps its version.
    await other.setData(path, '{"replicas": 4, "by": "ops"}');
    await waitText(page, 'stat-version', '1');
    await page.click(testid('edit-save'));
    await page.waitForSelector(testid('edit-conflict'));
    expect(await page.textContent(testid('conflict-title'))).toBe('changed meanwhile (version 0 → 1)');
    expect(await page.textContent(testid('conflict-theirs'))).toBe('{"replicas": 4, "by": "ops"}');
    expect(await page.textContent(testid('conflict-yours'))).toBe('{"replicas": 5}');
    expect(await dataOf(path)).toBe('{"replicas": 4, "by": "ops"}');
    await keepScreenshot(page, 'edit-conflict');
    await page.click(testid('conflict-overwrite'));
    await until(async () => (await dataOf(path)) === '{"replicas": 5}', 'our data on the server');
    await page.waitForSelector(testid('edit-dialog'), { state: 'detached' });
    expect((await other.getData(path)).stat.version).toBe(2);
    await page.close();
  });

  it('keeps my text on "keep editing", takes theirs on "reload theirs", and shows a refusal in words with its code', async () => {
    const path = `${root}/reload`;
    await other.create(path, 'first');
    const page = await openNode(open, path);
    await page.click(testid('action-edit'));
    await page.fill(testid('edit-data'), 'mine');
    await other.setData(path, 'second');
    await page.click(testid('edit-save'));
    await page.click(testid('conflict-keep'));
    expect(await page.inputValue(testid('edit-data'))).toBe('mine');
    expect(await page.textContent(testid('edit-base'))).toBe('saving replaces version 1');
    await other.setData(path, 'third');
    await page.click(testid('edit-save'));
    await waitText(page, 'conflict-title', 'changed meanwhile (version 1 → 2)');
    await page.click(testid('conflict-reload'));
    expect(await page.inputValue(testid('edit-data'))).toBe('third');
    expect(await page.textContent(testid('edit-base'))).toBe('saving replaces version 2');
    expect(await dataOf(path)).toBe('third');
    // Now the ACL forbids writing: the save is refused NO_AUTH, said in words.
    await other.setACL(path, [{ perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } }]);
    await page.fill(testid('edit-data'), 'third, edited');
    await page.click(testid('edit-save'));
    const error = await page.waitForSelector(testid('action-error'));
    expect(await error.textContent()).toMatch(/^NO_AUTH set the data of .*\/reload at version 2: .*ACL does not grant the console's session this permission/);
    expect(await dataOf(path)).toBe('third');
    await page.close();
  });

  it('creates a child through the form, which the tree then shows', async () => {
    const page = await openNode(open, root);
    await page.click(testid('action-create'));
    await page.selectOption(testid('create-mode'), 'persistent-with-ttl');
    expect(await page.inputValue(testid('create-ttl'))).toBe('60000');
    await page.selectOption(testid('create-mode'), 'persistent');
    expect(await page.locator(testid('create-ttl')).count()).toBe(0);
    await page.fill(testid('create-name'), 'made-by-form');
    await page.fill(testid('create-data'), 'hello from the form');
    await page.click(testid('create-submit'));
    await waitText(page, 'node-path', `${root}/made-by-form`);
    expect(await dataOf(`${root}/made-by-form`)).toBe('hello from the form');
    await page.click(`${testid('crumb')} >> text=${root.slice(1)}`);
    await page.waitForSelector(`${testid('child-name')} >> text=made-by-form`);
    await page.close();
  });

  it('edits the ACL row by row', async () => {
    const path = `${root}/acl`;
    await other.create(path);
    const page = await openNode(open, path);
    await page.click(testid('action-acl'));
    await page.uncheck(testid('acl-perm-0-w'));
    await page.uncheck(testid('acl-perm-0-d'));
    await page.click(testid('acl-save'));
    await page.waitForSelector(testid('acl-dialog'), { state: 'detached' });
    expect((await other.getACL(path)).acl).toEqual([{ perms: Perms.ALL & ~Perms.WRITE & ~Perms.DELETE, id: { scheme: 'world', id: 'anyone' } }]);
    await page.close();
  });

  it('deletes a subtree only after confirming its count, and asks again when it grew', async () => {
    const base = `${root}/doomed`;
    await other.create(base);
    for (const i of [0, 1, 2]) {
      await other.create(`${base}/${i}`);
      for (const leaf of ['x', 'y']) await other.create(`${base}/${i}/${leaf}`);
    }
    const page = await openNode(open, base);
    await page.click(testid('action-delete'));
    await waitText(page, 'delete-question', `delete 10 nodes under ${base}?`);
    await keepScreenshot(page, 'delete-confirm');
    // It grows after the user saw the count: the console refuses and the page counts again.
    await other.create(`${base}/late`);
    await page.click(testid('delete-confirm'));
    expect(await (await page.waitForSelector(testid('action-error'))).textContent()).toMatch(/^CONFLICT .*more than the 10 nodes confirmed/);
    await waitText(page, 'delete-question', `delete 11 nodes under ${base}?`);
    expect((await other.getAllChildrenNumber(base)) + 1).toBe(11);
    await page.click(testid('delete-confirm'));
    await until(async () => (await other.exists(base)) === null, 'the subtree deleted');
    await waitText(page, 'node-path', root);
    await page.close();
  });

  it('deletes a leaf with a plain confirmation', async () => {
    const path = `${root}/leaf`;
    await other.create(path);
    const page = await openNode(open, path);
    await page.click(testid('action-delete'));
    expect(await page.textContent(testid('delete-question'))).toBe(`delete ${path}?`);
    await page.click(testid('delete-confirm'));
    await until(async () => (await other.exists(path)) === null, 'the leaf deleted');
    await page.close();
  });

  it('renders no write buttons on a read-only console', async () => {
    const path = `${root}/ro`;
    await other.create(path, 'look only');
    const page = await openNode(readOnly, path);
    await page.waitForSelector(testid('node-detail'));
    expect(await page.locator(testid('node-actions')).count()).toBe(0);
    expect(await page.locator('[data-testid^="action-"]').count()).toBe(0);
    // The same page on the writable console has them: the check above can fail.
    const writable = await openNode(open, path);
    expect(await writable.locator('[data-testid^="action-"]').count()).toBe(4);
    await page.close();
    await writable.close();
  });
});
