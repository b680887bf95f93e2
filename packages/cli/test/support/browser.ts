/**
 * The console's browser tests: Debian's chromium driven by playwright-core (which downloads no browser), a
 * console started in this process over a real ZooKeeper, and screenshots kept under .zkts-tmp/screenshots/
 * (not committed). A missing chromium fails the test with the package to install: these tests never skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { connect, type ClientOptions, type ZkClient } from '@zkts/protocol';
import { chromium, type Browser, type Page } from 'playwright-core';

import { startConsole, type ConsoleOptions, type RunningConsole } from '../../src/console/app.js';
import { REPO_ROOT } from './cli.js';

export const CHROMIUM = process.env['ZKTS_CHROMIUM'] ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(REPO_ROOT, '.zkts-tmp', 'screenshots');
const CLI_ROOT = join(REPO_ROOT, 'packages', 'cli');

function newest(dir: string): number {
  let time = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) time = Math.max(time, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return time;
}

/** Builds the page's bundle when it is missing or older than its sources (a test run straight after an edit). */
export function ensureUiBuilt(): void {
  const out = join(CLI_ROOT, 'dist', 'console-ui', 'app.js');
  const sources = Math.max(newest(join(CLI_ROOT, 'ui', 'src')), statSync(join(CLI_ROOT, 'src', 'console', 'api-types.ts')).mtimeMs);
  if (existsSync(out) && statSync(out).mtimeMs >= sources) return;
  execFileSync(process.execPath, [join(CLI_ROOT, 'scripts', 'build-ui.mjs')], { stdio: 'inherit' });
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`the console's browser tests need chromium at ${CHROMIUM}: apt-get install chromium (scripts/setup.sh)`);
  ensureUiBuilt();
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

export interface TestConsole {
  readonly console: RunningConsole;
  /** The console's own client. */
  readonly client: ZkClient;
  close(): Promise<void>;
}

/** A console on a free port over `server`, with its own client. */
export async function startTestConsole(server: string, options: Partial<Omit<ConsoleOptions, 'client' | 'server'>> = {}, clientOptions: ClientOptions = {}): Promise<TestConsole> {
  const client = await connect(server, clientOptions);
  const running = await startConsole({ client, server, port: 0, ...options });
  return {
    console: running,
    client,
    close: async () => {
      await running.close();
      await client.close();
    },
  };
}

/** Opens the console's URL (token included) in a new page and waits for the shell. */
export async function openConsole(browser: Browser, running: RunningConsole, hash = ''): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${running.url}${hash}`);
  await page.waitForSelector('[data-testid="server"]');
  return page;
}

/** Keeps a screenshot of the page under .zkts-tmp/screenshots/NAME.png. */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}
