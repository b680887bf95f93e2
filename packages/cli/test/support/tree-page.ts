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

/** Opens `#/tree<path>` in an already loaded console page and waits for the live stream to be armed. */
export async function openTree(page: Page, hash: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  await page.waitForSelector('[data-testid="live-state"]:text-is("live")');
}
