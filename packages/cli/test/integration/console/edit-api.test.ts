import { Buffer } from 'node:buffer';

import { connect, Perms, type ZkClient } from '@zkts/protocol';
import { startZooKeeper } from '@zkts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiErrorBody, CreateModeName, CreateReply, DeleteReply, NodeInfo, SubtreeCount } from '../../../src/console/api-types.js';
import { editRoutes } from '../../../src/console/routes/edit.js';
import type { JsonRoute } from '../../../src/console/router.js';
import { startTestConsole, type TestConsole } from '../../support/browser.js';
import { sharedServer, uniqueRoot } from '../../support/cli.js';
import { consoleApi, type ConsoleApi } from '../../support/console-api.js';
import { until } from '../../support/wait.js';

const server = sharedServer();
const root = uniqueRoot('console-edit');
let other: ZkClient;
let open: TestConsole;
let api: ConsoleApi;

const b64 = (text: string): string => Buffer.from(text).toString('base64');

beforeAll(async () => {
  other = await connect(server);
  await other.create(root);
  open = await startTestConsole(server);
  api = await consoleApi(open.console);
});
afterAll(async () => {
  await other?.removeRecursive(root).catch(() => undefined);
  await other?.close();
  await open?.close();
});

/** root/a/{0,1,2}/{x,y}: 1 + 1 + 3 + 6 = 10 nodes under (and including) root/a. */
async function makeTree(base: string): Promise<void> {
  await other.create(base);
  for (const i of [0, 1, 2]) {
    await other.create(`${base}/${i}`);
    for (const leaf of ['x', 'y']) await other.create(`${base}/${i}/${leaf}`);
  }
}

describe('POST /api/create', () => {
  it('creates every mode, TTL ones included, with the data given and an open ACL by default', async () => {
    // Its own server: one that reaps empty containers and expired TTL nodes within 100 ms, the only way a
    // client tells those modes apart (the server shows them with ephemeralOwner 0, like persistent nodes).
    await using zk = await startZooKeeper({ extendedTypesEnabled: true, containerCheckIntervalMs: 100, tickTime: 500 });
    const own = await startTestConsole(zk.connectString);
    const ownApi = await consoleApi(own.console);
    const peer = await connect(zk.connectString);
    try {
      const session = own.client.sessionId;
      const cases: [CreateModeName, number | undefined, bigint, boolean][] = [
        ['persistent', undefined, 0n, false],
        ['ephemeral', undefined, session, false],
        ['persistent-sequential', undefined, 0n, true],
        ['ephemeral-sequential', undefined, session, true],
        ['container', undefined, 0n, false],
        ['persistent-with-ttl', 300, 0n, false],
        ['persistent-sequential-with-ttl', 300, 0n, true],
      ];
      const made = new Map<CreateModeName, string>();
      for (const [mode, ttl, owner, sequential] of cases) {
        const path = `/mode-${mode}`;
        const data = Buffer.from([0, 0xff, 0x80, 0x41]).toString('base64');
        const reply = await ownApi.post<CreateReply>('/api/create', { path, data, mode, ...(ttl === undefined ? {} : { ttl }) });
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        if (sequential) expect(reply.body.path, mode).toMatch(new RegExp(`^${path}\\d{10}$`));
        else expect(reply.body.path, mode).toBe(path);
        const read = await peer.getData(reply.body.path);
        expect(read.data.toString('base64'), mode).toBe(data);
        expect(read.stat.ephemeralOwner, mode).toBe(owner);
        expect((await peer.getACL(reply.body.path)).acl).toEqual([{ perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } }]);
        made.set(mode, reply.body.path);
      }
      // A container goes once its last child does (one that never had a child stays); TTL nodes once idle.
      const container = made.get('container') ?? '';
      await peer.create(`${container}/child`);
      await peer.delete(`${container}/child`);
      const reaped: CreateModeName[] = ['container', 'persistent-with-ttl', 'persistent-sequential-with-ttl'];
      await until(async () => (await Promise.all(reaped.map((m) => peer.exists(made.get(m) ?? '')))).every((s) => s === null), 'containers and TTL nodes reaped', { timeout: 20_000 });
      for (const mode of ['persistent', 'persistent-sequential', 'ephemeral'] as const) expect(await peer.exists(made.get(mode) ?? ''), mode).not.toBeNull();
    } finally {
      await peer.close();
      await own.close();
    }
  });

  it('creates with the ACL given', async () => {
    const reply = await api.post<CreateReply>('/api/create', { path: `${root}/acl-given`, data: '', mode: 'persistent', acl: [{ scheme: 'world', id: 'anyone', perms: 'rca' }] });
    expect(reply.status).toBe(200);
    expect((await other.getACL(`${root}/acl-given`)).acl).toEqual([{ perms: Perms.READ | Perms.CREATE | Perms.ADMIN, id: { scheme: 'world', id: 'anyone' } }]);
  });

  it('answers a malformed request 400 BAD_REQUEST naming the field, and writes nothing', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ path: 'no-slash', data: '', mode: 'persistent' }, /^path: /],
      [{ path: `${root}/bad/`, data: '', mode: 'persistent' }, /^path: /],
      [{ path: `${root}/bad`, data: '', mode: 'forever' }, /^mode: must be one of persistent, ephemeral/],
      [{ path: `${root}/bad`, data: '', mode: 'persistent-with-ttl' }, /^ttl: mode persistent-with-ttl needs/],
      [{ path: `${root}/bad`, data: '', mode: 'persistent-with-ttl', ttl: -5 }, /^ttl: /],
      [{ path: `${root}/bad`, data: '', mode: 'ephemeral', ttl: 1000 }, /^ttl: only the TTL modes/],
      [{ path: `${root}/bad`, data: 'not base64!', mode: 'persistent' }, /^data: must be base64/],
      [{ path: `${root}/bad`, data: '', mode: 'persistent', acl: [{ scheme: 'world', id: 'anyone', perms: 'rwx' }] }, /^acl\[0\]\.perms: unknown permission "x"/],
      [{ path: `${root}/bad`, data: '', mode: 'persistent', acl: [] }, /^acl: must be a non-empty list/],
    ];
    for (const [body, message] of bad) {
      const reply = await api.post<ApiErrorBody>('/api/create', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error.code).toBe('BAD_REQUEST');
      expect(reply.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await other.exists(`${root}/bad`)).toBeNull();
  });

  it("keeps the server's code and says it in words", async () => {
    await other.create(`${root}/exists`);
    const reply = await api.post<ApiErrorBody>('/api/create', { path: `${root}/exists`, data: '', mode: 'persistent' });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toEqual({ code: 'NODE_EXISTS', message: expect.stringMatching(/^create .*\/exists \(persistent\): .*already exists/) });
    const orphan = await api.post<ApiErrorBody>('/api/create', { path: `${root}/missing/child`, data: '', mode: 'persistent' });
    expect([orphan.status, orphan.body.error.code]).toEqual([404, 'NO_NODE']);
  });
});

describe('POST /api/set', () => {
  it('writes with the version read and answers the node; a stale version is 409 BAD_VERSION with the node as it is now', async () => {
    const path = `${root}/set`;
    await other.create(path, 'v0');
    const first = await api.post<NodeInfo>('/api/set', { path, data: b64('mine'), version: 0 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ path, data: b64('mine'), stat: { version: 1 }, acl: [{ scheme: 'world', id: 'anyone', perms: 'cdrwa' }] });
    await other.setData(path, 'theirs');
    const stale = await api.post<ApiErrorBody>('/api/set', { path, data: b64('mine again'), version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('BAD_VERSION');
    expect(stale.body.error.message).toMatch(/^set the data of .*\/set at version 1: bad version .*\(the node changed since it was read: it is at version 2, ACL version 0 now\)$/);
    expect(stale.body.current).toMatchObject({ path, data: b64('theirs'), stat: { version: 2 } });
    expect((await other.getData(path)).data.toString()).toBe('theirs');
    const overwrite = await api.post<NodeInfo>('/api/set', { path, data: b64('mine again'), version: 2 });
    expect(overwrite.body.stat.version).toBe(3);
    expect((await other.getData(path)).data.toString()).toBe('mine again');
  });
});

describe('POST /api/acl', () => {
  it('sets the ACL with the aversion read; a write the ACL then forbids is refused NO_AUTH in words', async () => {
    const path = `${root}/acl`;
    await other.create(path, 'keep');
    const stale = await api.post<ApiErrorBody>('/api/acl', { path, acl: [{ scheme: 'world', id: 'anyone', perms: 'r' }], aversion: 7 });
    expect([stale.status, stale.body.error.code]).toEqual([409, 'BAD_VERSION']);
    expect(stale.body.current).toMatchObject({ path, stat: { aversion: 0 }, acl: [{ scheme: 'world', id: 'anyone', perms: 'cdrwa' }] });
    const set = await api.post<NodeInfo>('/api/acl', { path, acl: [{ scheme: 'world', id: 'anyone', perms: 'r' }], aversion: 0 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ path, data: b64('keep'), stat: { aversion: 1 }, acl: [{ scheme: 'world', id: 'anyone', perms: 'r' }] });
    expect((await other.getACL(path)).acl).toEqual([{ perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } }]);
    const refused = await api.post<ApiErrorBody>('/api/set', { path, data: b64('nope'), version: -1 });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('NO_AUTH');
    expect(refused.body.error.message).toMatch(/^set the data of .*\/acl at version -1: .*ACL does not grant the console's session this permission/);
    expect((await other.getData(path)).data.toString()).toBe('keep');
  });
});

describe('POST /api/delete and GET /api/count', () => {
  it('deletes a leaf with its version; refuses a node with children without recursive', async () => {
    await other.create(`${root}/leaf`);
    const stale = await api.post<ApiErrorBody>('/api/delete', { path: `${root}/leaf`, version: 3 });
    expect([stale.status, stale.body.error.code]).toEqual([409, 'BAD_VERSION']);
    expect(stale.body.current).toMatchObject({ path: `${root}/leaf`, stat: { version: 0 } });
    expect((await api.post<DeleteReply>('/api/delete', { path: `${root}/leaf`, version: 0 })).body).toEqual({ deleted: 1 });
    expect(await other.exists(`${root}/leaf`)).toBeNull();
    await makeTree(`${root}/parent`);
    const notEmpty = await api.post<ApiErrorBody>('/api/delete', { path: `${root}/parent` });
    expect([notEmpty.status, notEmpty.body.error.code]).toEqual([409, 'NOT_EMPTY']);
    expect(notEmpty.body.error.message).toMatch(/delete it recursively/);
  });

  it('counts a subtree, refuses a recursive delete when it has more nodes than confirmed, deletes when confirmed', async () => {
    const base = `${root}/tree`;
    await makeTree(base);
    expect((await api.get<SubtreeCount>(`/api/count?path=${encodeURIComponent(base)}`)).body).toEqual({ path: base, count: 10 });
    const grew = await api.post<ApiErrorBody>('/api/delete', { path: base, recursive: true, confirmCount: 9 });
    expect([grew.status, grew.body.error.code]).toEqual([409, 'CONFLICT']);
    expect(grew.body.error.message).toMatch(/more than the 9 nodes confirmed/);
    expect((await other.getAllChildrenNumber(base)) + 1).toBe(10);
    const missingCount = await api.post<ApiErrorBody>('/api/delete', { path: base, recursive: true });
    expect([missingCount.status, missingCount.body.error.message]).toEqual([400, expect.stringMatching(/^confirmCount: /)]);
    expect((await api.post<DeleteReply>('/api/delete', { path: base, recursive: true, confirmCount: 10 })).body).toEqual({ deleted: 10 });
    expect(await other.exists(base)).toBeNull();
    const gone = await api.get<ApiErrorBody>(`/api/count?path=${encodeURIComponent(base)}`);
    expect([gone.status, gone.body.error.code]).toEqual([404, 'NO_NODE']);
  });

  it('reports a partial recursive delete: how many went and the refusal in words', async () => {
    const base = `${root}/partial`;
    await makeTree(base);
    // Deleting a child needs DELETE on its parent: /1 without it keeps /1/x and /1/y.
    await other.setACL(`${base}/1`, [{ perms: Perms.ALL & ~Perms.DELETE, id: { scheme: 'world', id: 'anyone' } }]);
    const reply = await api.post<ApiErrorBody>('/api/delete', { path: base, recursive: true, confirmCount: 10 });
    expect([reply.status, reply.body.error.code]).toEqual([403, 'NO_AUTH']);
    const deleted = Number(/^deleted (\d+) of 10 nodes under /.exec(reply.body.error.message)?.[1]);
    expect(reply.body.error.message).toMatch(/then deleting .*\/partial\/1\/[xy] failed: .*ACL does not grant/);
    expect((await other.getAllChildrenNumber(base)) + 1).toBe(10 - deleted);
    expect(await other.exists(`${base}/1/x`)).not.toBeNull();
  });

  it('bounds counting and deleting: a subtree over the limit is refused TOO_LARGE', async () => {
    const base = `${root}/big`;
    await makeTree(base);
    const routes = editRoutes({ client: open.client, maxSubtree: 5 }) as JsonRoute[];
    const route = (path: string): JsonRoute => routes.find((r) => r.path === path) as JsonRoute;
    const signal = new AbortController().signal;
    await expect(route('/api/count').handle({ query: new URLSearchParams({ path: base }), body: undefined, signal })).rejects.toMatchObject({
      status: 413,
      code: 'TOO_LARGE',
      message: expect.stringMatching(/more than 5 nodes under/),
    });
    const del = route('/api/delete').handle({ query: new URLSearchParams(), body: { path: base, recursive: true, confirmCount: 100 }, signal });
    await expect(del).rejects.toMatchObject({ status: 413, code: 'TOO_LARGE' });
    expect((await other.getAllChildrenNumber(base)) + 1).toBe(10);
  });
});

describe('write admission', () => {
  it('refuses a POST without the CSRF header, or from a foreign Origin (403 BAD_CSRF)', async () => {
    const path = `${root}/csrf`;
    const noCsrf = await api.post<ApiErrorBody>('/api/create', { path, data: '', mode: 'persistent' }, { 'x-zkts-csrf': '' });
    expect([noCsrf.status, noCsrf.body.error.code]).toEqual([403, 'BAD_CSRF']);
    const foreign = await api.post<ApiErrorBody>('/api/create', { path, data: '', mode: 'persistent' }, { origin: 'http://evil.example' });
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'BAD_CSRF']);
    expect(await other.exists(path)).toBeNull();
  });

  it('a --read-only console refuses a forged POST with a valid token and CSRF header (403 READ_ONLY)', async () => {
    const path = `${root}/read-only`;
    await other.create(path, 'untouched');
    const readOnly = await startTestConsole(server, { readOnly: true });
    try {
      const roApi = await consoleApi(readOnly.console);
      const writes: [string, unknown][] = [
        ['/api/set', { path, data: b64('forged'), version: -1 }],
        ['/api/delete', { path }],
        ['/api/create', { path: `${path}/child`, data: '', mode: 'persistent' }],
        ['/api/acl', { path, acl: [{ scheme: 'world', id: 'anyone', perms: 'r' }], aversion: -1 }],
      ];
      for (const [route, body] of writes) {
        const reply = await roApi.post<ApiErrorBody>(route, body);
        expect([reply.status, reply.body.error.code], route).toEqual([403, 'READ_ONLY']);
      }
      const node = await other.getData(path);
      expect([node.data.toString(), node.stat.version, node.stat.aversion, node.stat.numChildren]).toEqual(['untouched', 0, 0, 0]);
      expect((await roApi.get<SubtreeCount>(`/api/count?path=${encodeURIComponent(path)}`)).body).toEqual({ path, count: 1 });
    } finally {
      await readOnly.close();
    }
  });
});
