/**
 * What the Tree view's browser tests share: a page guard that records dialogs, page errors and console
 * errors (hostile data must cause none), reading the rendered child names, and polling a condition with a
 * deadline.
 */
import type { Page } from 'playwright-core';

export interface PageGuard {
  readonly dialogs: string[];
  readonly errors: string[];
  /** Every answer of 400 or more the page got, as `status method url`: chromium's console line names no URL. */
  readonly failedResponses: string[];
}

export function guardPage(page: Page): PageGuard {
  const guard: PageGuard = { dialogs: [], errors: [], failedResponses: [] };
  page.on('response', (response) => {
    if (response.status() >= 400) guard.failedResponses.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on('dialog', (dialog) => {
    guard.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => guard.errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') guard.errors.push(`console: ${message.text()}`);
  });
  return guard;
}

/** The child names the list shows, as text, in DOM order. */
export function shownNames(page: Page): Promise<string[]> {
  return page.$$eval('[data-testid="child-list"] [data-testid="child-name"]', (elements) => elements.map((e) => e.textContent ?? ''));
}

/** Polls `check` until it returns true; throws with `what` after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Records in the page the first moment (the page's `Date.now()`, the same clock as the test's) that `condition`,
 * a JavaScript expression evaluated in the page, holds: checked now and on every DOM change after. Arm it before
 * making the change, then read the moment with `shownAt`. The latency is then the page's own: polling the page
 * from the test (a DevTools round trip per look, plus the pause between looks) adds the test's time to it, and
 * on a loaded machine that time can be most of it.
 */
export async function armShown(page: Page, key: string, condition: string): Promise<void> {
  const heldAlready = await page.evaluate(`(() => {
    const check = () => { try { return Boolean(${condition}); } catch { return false; } };
    if (check()) return true;
    window.__shown ??= {};
    window.__shown[${JSON.stringify(key)}] = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (!check()) return;
        observer.disconnect();
        resolve(Date.now());
      });
      observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    return false;
  })()`);
  // Already true before the change: there is nothing to time (and a latency of zero would prove nothing).
  if (heldAlready !== false) throw new Error(`${key} already shows before the change that should make it show`);
}

/** When `armShown`'s condition first held (ms since the epoch); throws if it has not within `timeoutMs`. */
export async function shownAt(page: Page, key: string, timeoutMs = 10_000): Promise<number> {
  const at = (await page.evaluate(`Promise.race([
    window.__shown[${JSON.stringify(key)}],
    new Promise((resolve) => setTimeout(() => resolve(null), ${timeoutMs})),
  ])`)) as number | null;
  if (at === null) throw new Error(`the page did not show ${key} within ${timeoutMs} ms`);
  return at;
}

/** A page expression: the child list shows a child named `name`. */
export function childShown(name: string): string {
  return `[...document.querySelectorAll('[data-testid="child-list"] [data-testid="child-name"]')].some((e) => e.textContent === ${JSON.stringify(name)})`;
}

/** Opens `#/tree<path>` in an already loaded console page and waits for the live stream to be armed. */
export async function openTree(page: Page, hash: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  await page.waitForSelector('[data-testid="live-state"]:text-is("live")');
}
