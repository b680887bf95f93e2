import { basename } from 'node:path';

import { connect, joinPath, type ZkClient } from '@zkts/protocol';
import { LeaderElection, Mutex, Queue } from '@zkts/recipes';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { RecipeInfo } from '../../../src/console/api-types.js';
import { checkKazoo, compileCurator, curator, kazooWriter, killAll, zktsProcess } from '../../../../recipes/test/support/foreign.js';
import { keepScreenshot, launchBrowser, openConsole, startTestConsole, type TestConsole } from '../../support/browser.js';
import { sharedServer, uniqueRoot } from '../../support/cli.js';

const server = sharedServer();
const root = uniqueRoot('console-recipes');
let browser: Browser;
let open: TestConsole;
/** Reads what the foreign processes wrote (their sessions), apart from the console's client and the contenders'. */
let observer: ZkClient;
let curatorClasspath: { classpath: string; dispose: () => void };
const clients: ZkClient[] = [];
const pages: Page[] = [];

beforeAll(async () => {
  checkKazoo();
  curatorClasspath = compileCurator();
  browser = await launchBrowser();
  open = await startTestConsole(server);
  observer = await connect(server);
});
afterEach(async () => {
  killAll();
  for (const p of pages.splice(0)) await p.close();
  for (const c of clients.splice(0)) await c.close();
});
afterAll(async () => {
  await browser?.close();
  await observer?.removeRecursive(root).catch(() => undefined);
  await observer?.close();
  await open?.close();
  curatorClasspath?.dispose();
});

const hex = (id: bigint): string => `0x${id.toString(16)}`;

async function client(options: { sessionTimeout?: number } = {}): Promise<ZkClient> {
  const c = await connect(server, options);
  clients.push(c);
  return c;
}

/** The tree view on `path`: its node detail hosts the recipe panel. */
async function openRecipe(path: string): Promise<Page> {
  const page = await openConsole(browser, open.console, `#/tree${path}`);
  pages.push(page);
  return page;
}

interface Row {
  role: string;
  name: string;
  owner: string;
  library: string;
  session: string;
  age: string;
}

function rows(page: Page): Promise<Row[]> {
  return page.$$eval('[data-testid="recipe-member"]', (trs) =>
    trs.map((tr) => ({
      role: tr.querySelector('[data-testid="member-role"]')?.textContent ?? '',
      name: tr.querySelector('[data-testid="member-name"]')?.textContent ?? '',
      owner: tr.querySelector('[data-testid="member-owner"]')?.textContent ?? '',
      library: tr.querySelector('[data-testid="member-library"]')?.textContent ?? '',
      session: tr.querySelector('[data-testid="member-session"]')?.textContent ?? '',
      age: tr.querySelector('[data-testid="member-age"]')?.textContent ?? '',
    })),
  );
}

/** Polls `read` until `ok` holds, failing with the last value after `timeout` ms. */
async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, timeout = 10_000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const childCount = (path: string, n: number): Promise<unknown> =>
  until(`${path} has ${n} children`, async () => (await observer.getChildren(path).catch(() => ({ children: [] }))).children.length, (c) => c === n, 60_000);

/** Every child's ephemeral owner as read by the observer: the sessions the panel must show. */
async function sessionsOf(path: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of (await observer.getChildren(path)).children) {
    const stat = await observer.exists(joinPath(path, name));
    if (stat !== null) out.set(name, hex(stat.ephemeralOwner));
  }
  return out;
}

describe('console recipe panel', () => {
  it('shows one lock queue of a Curator holder, a kazoo waiter and a zkts waiter, then kazoo holding once Curator releases', async () => {
    const lock = `${root}/lock`;
    const holder = curator(curatorClasspath.classpath, 'hold-mutex', server, lock);
    const held = (await holder.line(/HELD (\S+)/, 60_000))[1] ?? '';
    kazooWriter(server, lock, 'kazoo-waiter', 1, 600_000);
    await childCount(lock, 2);
    const ours = await client();
    new Mutex(ours, lock).acquire().catch(() => undefined); // waits behind both until its client closes
    await childCount(lock, 3);
    const sessions = await sessionsOf(lock);
    const curatorData = new TextDecoder().decode((await observer.getData(held)).data);

    const page = await openRecipe(lock);
    const shown = await until('three contenders', () => rows(page), (r) => r.length === 3);
    expect(await page.textContent('[data-testid="recipe-kind"]')).toBe('mutex');
    expect(await page.textContent('[data-testid="recipe-title"]')).toMatch(/held, 2 waiting/);
    const [first, second, third] = shown;
    expect(first).toMatchObject({ role: 'holder', library: 'curator', name: basename(held), owner: curatorData });
    expect(first?.age).toMatch(/^held for /);
    expect(second).toMatchObject({ role: 'waiter', library: 'kazoo', owner: 'kazoo-waiter' });
    expect(second?.name).toContain('__lock__');
    expect(second?.age).toMatch(/^waiting for /);
    expect(third).toMatchObject({ role: 'waiter', library: 'zkts', owner: '—', session: hex(ours.sessionId) });
    for (const row of shown) expect(row.session, row.name).toBe(sessions.get(row.name));
    expect(new Set(shown.map((r) => r.session)).size).toBe(3);
    // The session links to the sessions view, and the ages count on without a reload.
    expect(await page.getAttribute('[data-testid="recipe-member"] [data-testid="member-session"] a', 'href')).toBe(`#/sessions/?session=${first?.session}`);
    await until('the holder age ticking', async () => (await rows(page))[0]?.age, (age) => age !== first?.age, 5_000);
    await keepScreenshot(page, 'lock');

    holder.proc.stdin!.write('\n');
    await holder.line(/RELEASED/);
    const after = await until('kazoo holding', () => rows(page), (r) => r.length === 2 && r[0]?.role === 'holder' && r[0].library === 'kazoo', 6_000);
    expect(after[0]).toMatchObject({ owner: 'kazoo-waiter', session: second?.session });
    expect(after[1]).toMatchObject({ role: 'waiter', library: 'zkts', session: hex(ours.sessionId) });
  });

  it('shows an election whose leader process is killed: the other candidate becomes the leader', async () => {
    const path = `${root}/election`;
    const remote = zktsProcess('lead.ts', server, path, 'zkts-remote', '4000');
    const led = await remote.line(/LEADING (\S+) (\d+)/, 60_000);
    const ours = await client();
    const election = new LeaderElection(ours, path, { id: 'zkts-local' });
    await election.start();

    const page = await openRecipe(path);
    const shown = await until('leader and candidate', () => rows(page), (r) => r.length === 2);
    expect(await page.textContent('[data-testid="recipe-kind"]')).toBe('election');
    expect(shown[0]).toMatchObject({ role: 'leader', owner: 'zkts-remote', name: basename(led[1] ?? ''), session: hex(BigInt(led[2] ?? '0')) });
    expect(shown[0]?.age).toMatch(/^leading for /);
    expect(shown[1]).toMatchObject({ role: 'candidate', owner: 'zkts-local', session: hex(ours.sessionId) });
    expect(shown[1]?.age).toMatch(/^waiting for /);
    await keepScreenshot(page, 'election');

    remote.proc.kill('SIGKILL');
    // The leader's node goes when its 4 s session expires.
    const after = await until('the local candidate leading', () => rows(page), (r) => r.length === 1 && r[0]?.role === 'leader', 20_000);
    expect(after[0]).toMatchObject({ owner: 'zkts-local', session: hex(ours.sessionId) });
    expect(await page.textContent('[data-testid="recipe-title"]')).toMatch(/leader zkts-local/);
    await election.awaitLeadership({ timeout: 5_000 });
    await election.close();
  });

  it('shows a queue\'s depth growing, a plain node as no recipe, and refuses a bad path', async () => {
    const path = `${root}/queue`;
    const ours = await client();
    const queue = new Queue(ours, path);
    for (const item of ['a', 'b', 'c']) await queue.offer(new TextEncoder().encode(item));
    const page = await openRecipe(path);
    await until('three items', () => rows(page), (r) => r.length === 3 && r.every((m) => m.role === 'item' && m.library === 'zkts'));
    expect(await page.textContent('[data-testid="recipe-kind"]')).toBe('queue');
    expect(await page.textContent('[data-testid="recipe-fact"][data-key="depth"] dd')).toBe('3');
    await queue.offer(new TextEncoder().encode('d'));
    await until('depth 4', () => page.textContent('[data-testid="recipe-fact"][data-key="depth"] dd'), (d) => d === '4', 6_000);

    const api = (p: string): Promise<Response> => fetch(`http://127.0.0.1:${open.console.port}/api/recipe?path=${encodeURIComponent(p)}`, { headers: { authorization: `Token ${open.console.token}` } });
    await ours.create(`${root}/plain`, new TextEncoder().encode('x'));
    const plain = await api(`${root}/plain`);
    expect(plain.status).toBe(200);
    expect((await plain.json()) as RecipeInfo).toMatchObject({ kind: null, path: `${root}/plain`, members: [] });
    const bad = await api('no/slash');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'BAD_REQUEST' } });
  });

  it('a node with a child the console may not read is still answered (no recipe); the private node itself is a 403', async () => {
    // The root of a real ensemble often holds other applications' private nodes: the recipe panel asks about
    // every node the page shows, and one unreadable child must not turn its answer into an error.
    const dir = `${root}/mixed`;
    const owner = await connect(server, { auth: [{ scheme: 'digest', auth: 'owner:secret' }] });
    clients.push(owner);
    await observer.mkdirp(dir);
    for (const name of ['zookeeper', 'app']) await observer.create(`${dir}/${name}`);
    await owner.create(`${dir}/private`, 'theirs', { acl: [{ perms: 31, id: { scheme: 'auth', id: '' } }] });
    const api = (p: string): Promise<Response> => fetch(`http://127.0.0.1:${open.console.port}/api/recipe?path=${encodeURIComponent(p)}`, { headers: { authorization: `Token ${open.console.token}` } });
    try {
      const mixed = await api(dir);
      expect(mixed.status, await mixed.clone().text()).toBe(200);
      expect((await mixed.json()) as RecipeInfo).toMatchObject({ kind: null, path: dir, members: [] });
      const own = await api(`${dir}/private`);
      expect(own.status).toBe(403);
      expect(await own.json()).toMatchObject({ error: { code: 'NO_AUTH' } });
    } finally {
      await owner.delete(`${dir}/private`);
    }
  });
});
