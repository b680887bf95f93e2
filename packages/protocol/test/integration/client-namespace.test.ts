// client.namespace(): a view sharing the session, every path under the namespace, the node made once on
// first use, events in the view's paths, nesting, and a close() that leaves the shared session open.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WatchEvent, ZkClient } from '@zkts/protocol';
import { open, sharedServer, text, uniqueRoot, until } from '../support/integration.js';

/** The requests `session` sends (the operation and its server path), from the client's zkts:request traces. */
function requests(session: () => bigint): { sent: { op: string; path: string | undefined }[]; stop: () => void } {
  const sent: { op: string; path: string | undefined }[] = [];
  const on = (msg: unknown): void => {
    const t = msg as { sessionId: bigint; op: string; path: string | undefined };
    if (t.sessionId === session()) sent.push({ op: t.op, path: t.path });
  };
  subscribe('tracing:zkts:request:start', on);
  return { sent, stop: () => unsubscribe('tracing:zkts:request:start', on) };
}

describe('client.namespace', () => {
  let zk: ZkClient;
  const root = uniqueRoot('ns');
  const stops: (() => void)[] = [];

  beforeAll(async () => {
    zk = await open(sharedServer());
  });
  afterEach(() => {
    for (const s of stops.splice(0)) s();
  });
  afterAll(async () => {
    await zk.removeRecursive(root).catch(() => undefined);
    await zk.close();
  });

  it('shares the session; paths (results and events) are relative; the server sees full paths; the node is made once', async () => {
    const seen = requests(() => zk.sessionId);
    stops.push(seen.stop);
    const app = zk.namespace(`${root}/app`);
    expect(app.sessionId).toBe(zk.sessionId);
    expect(app.state).toBe('connected');
    expect(app.chroot).toBe(`${root}/app`);
    expect(await zk.exists(`${root}/app`)).toBeNull(); // nothing made before the first request

    const [a, b] = await Promise.all([app.create('/a', 'one'), app.create('/b', 'two')]);
    expect(a.path).toBe('/a');
    expect(b.path).toBe('/b');
    expect(text((await zk.getData(`${root}/app/a`)).data)).toBe('one');
    const seq = await app.create('/s-', null, { mode: 'persistent-sequential' });
    expect(seq.path).toMatch(/^\/s-\d{10}$/);
    expect((await app.getChildren('/')).children.sort()).toEqual(['a', 'b', seq.path.slice(1)].sort());

    const creates = seen.sent.filter((r) => r.op.startsWith('create'));
    // The namespace node (and its parent) are created once, before the view's own creates, whatever the concurrency.
    expect(creates.filter((r) => r.path === `${root}/app`)).toHaveLength(1);
    expect(creates.map((r) => r.path)).toEqual(expect.arrayContaining([`${root}/app/a`, `${root}/app/b`]));
    expect(seen.sent.every((r) => r.path === undefined || r.path.startsWith(root))).toBe(true);
    expect(seen.sent.length).toBeGreaterThan(3);

    const w = await app.getData('/a', { watch: true });
    const listened: WatchEvent[] = [];
    await app.getChildren('/', { watch: (e) => void listened.push(e) });
    await zk.setData(`${root}/app/a`, 'x');
    await expect(w.watch).resolves.toMatchObject({ type: 'dataChanged', path: '/a' });
    await zk.create(`${root}/app/c`);
    await until(() => listened.length === 1, 5000, 'the view listener');
    expect(listened[0]).toMatchObject({ type: 'childrenChanged', path: '/' });

    const pw = await app.addWatch('/', 'persistent-recursive');
    const events: WatchEvent[] = [];
    pw.on((e) => void events.push(e));
    await zk.setData(`${root}/app/b`, 'y');
    await until(() => events.length === 1, 5000, 'the persistent watch event');
    expect(events[0]).toMatchObject({ type: 'dataChanged', path: '/b' });
    await pw.remove();

    // multi through the view: paths in and out are the view's.
    const results = await app.multi([{ op: 'create', path: '/m', data: 'm' }, { op: 'setData', path: '/m', data: 'n' }]);
    expect(results[0]).toMatchObject({ op: 'create', path: '/m' });
    expect(text((await zk.getData(`${root}/app/m`)).data)).toBe('n');
  });

  it('nests, and the same listener on the root client and a view gets each one its own paths', async () => {
    const outer = zk.namespace(`${root}/nest`);
    const inner = outer.namespace('/inner');
    expect(inner.chroot).toBe(`${root}/nest/inner`);
    await inner.create('/leaf', 'v');
    expect(text((await zk.getData(`${root}/nest/inner/leaf`)).data)).toBe('v');
    expect(text((await outer.getData('/inner/leaf')).data)).toBe('v');

    const got: WatchEvent[] = [];
    const listener = (e: WatchEvent): void => void got.push(e);
    await inner.getData('/leaf', { watch: listener });
    await zk.getData(`${root}/nest/inner/leaf`, { watch: listener });
    await zk.setData(`${root}/nest/inner/leaf`, 'w');
    await until(() => got.length === 2, 5000, 'both watchers');
    expect(got.map((e) => e.path).sort()).toEqual([`${root}/nest/inner/leaf`, '/leaf'].sort());
  });

  it("a view's close() leaves the shared session open; the view sees the session's state and ephemerals", async () => {
    const view = zk.namespace(`${root}/closing`);
    await view.create('/eph', null, { mode: 'ephemeral' });
    expect(await view.getEphemerals('/')).toEqual(['/eph']);
    await view.close();
    expect(zk.state).toBe('connected');
    expect(view.state).toBe('connected');
    expect(await view.exists('/eph')).not.toBeNull();
    await zk.delete(`${root}/closing/eph`);
  });

  it('a namespace node deleted after first use is not made again (as in Curator); a failed first attempt is retried', async () => {
    const view = zk.namespace(`${root}/once`);
    await view.create('/x');
    await zk.removeRecursive(`${root}/once`);
    await expect(view.create('/y')).rejects.toMatchObject({ code: 'NO_NODE' });

    // The first attempt fails (a node in the way has an ephemeral owner: no children allowed), the next succeeds.
    await zk.create(`${root}/blocked`, null, { mode: 'ephemeral' });
    const blocked = zk.namespace(`${root}/blocked/ns`);
    await expect(blocked.create('/z')).rejects.toMatchObject({ code: 'NO_CHILDREN_FOR_EPHEMERALS' });
    await zk.delete(`${root}/blocked`);
    await blocked.create('/z');
    expect(await zk.exists(`${root}/blocked/ns/z`)).not.toBeNull();
  });
});
