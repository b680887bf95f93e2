// removeWatcher on a real server: one watcher goes, the others of the session on the same path keep theirs,
// and the server's watch goes with the last one (seen with the `wchp` four-letter word and by the server no
// longer sending the event).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fourLetter } from '@zkts/testkit';
import { ServerError, type WatchEvent, type ZkClient } from '@zkts/protocol';
import { hostPort, open, sharedServer, uniqueRoot, until } from '../support/integration.js';

/** `promise`, or a rejection after `ms` (the proof is the event; the bound only keeps a lost one from hanging). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const hex = (id: bigint): string => `0x${id.toString(16)}`;

/** Whether the server holds a watch of `session` on `path` (wchp: each path, then its sessions indented). */
async function serverWatches(path: string, session: bigint): Promise<boolean> {
  const lines = (await fourLetter(hostPort(sharedServer()), 'wchp')).split('\n');
  const at = lines.findIndex((l) => l.trim() === path);
  if (at < 0) return false;
  for (let i = at + 1; i < lines.length && /^\s/.test(lines[i] ?? ''); i++) if (lines[i]!.trim() === hex(session)) return true;
  return false;
}

/** The notifications the server sends to `session` (the client's diagnostics channel). */
function notifications(session: () => bigint): { events: { type: string; path: string }[]; stop: () => void } {
  const events: { type: string; path: string }[] = [];
  const on = (msg: unknown): void => {
    const m = msg as { sessionId: bigint; type: string; path: string };
    if (m.sessionId === session()) events.push({ type: m.type, path: m.path });
  };
  subscribe('zkts:event', on);
  return { events, stop: () => unsubscribe('zkts:event', on) };
}

describe('removeWatcher: one watcher at a time', () => {
  let zk: ZkClient;
  const root = uniqueRoot('rmw');
  const stops: (() => void)[] = [];

  beforeAll(async () => {
    zk = await open(sharedServer());
    await zk.create(root);
  });
  afterEach(() => {
    for (const s of stops.splice(0)) s();
  });
  afterAll(async () => {
    await zk.removeRecursive(root);
    await zk.close();
  });

  it('two listeners on one path: removing one leaves the other and the server watch; the last one takes the server watch', async () => {
    const path = `${root}/listeners`;
    await zk.create(path, 'a');
    const a: WatchEvent[] = [];
    const b: WatchEvent[] = [];
    const la = (e: WatchEvent): void => void a.push(e);
    const lb = (e: WatchEvent): void => void b.push(e);
    await zk.getData(path, { watch: la });
    await zk.getData(path, { watch: lb });
    expect(await serverWatches(path, zk.sessionId)).toBe(true);

    await zk.removeWatcher(path, la, 'data');
    await until(() => a.length === 1, 5000, 'the removed listener to hear its removal');
    expect(a).toEqual([{ type: 'dataWatchRemoved', path, zxid: -1n }]);
    expect(await serverWatches(path, zk.sessionId)).toBe(true);

    await zk.setData(path, 'b');
    await until(() => b.length === 1, 5000, 'the remaining listener to hear the change');
    expect(b[0]).toMatchObject({ type: 'dataChanged', path });
    expect(a).toHaveLength(1);
  });

  it('two watch promises: the first removal keeps the server watch, the second removes it and the server sends nothing more', async () => {
    const path = `${root}/promises`;
    await zk.create(path, 'a');
    const seen = notifications(() => zk.sessionId);
    stops.push(seen.stop);
    const first = (await zk.getData(path, { watch: true })).watch;
    const second = (await zk.exists(path, { watch: true })).watch;

    await zk.removeWatcher(path, first, 'data');
    await expect(first).resolves.toEqual({ type: 'dataWatchRemoved', path, zxid: -1n });
    expect(await serverWatches(path, zk.sessionId)).toBe(true);

    await zk.removeWatcher(path, second, 'any');
    await expect(second).resolves.toMatchObject({ type: 'dataWatchRemoved', path });
    expect(await serverWatches(path, zk.sessionId)).toBe(false);
    await zk.setData(path, 'b');
    // A later watch's event arrives in order after any event of the removed one: none came before it.
    const probe = (await zk.getData(path, { watch: true })).watch;
    await zk.setData(path, 'c');
    await expect(probe).resolves.toMatchObject({ type: 'dataChanged', path });
    expect(seen.events.filter((e) => e.path === path)).toEqual([{ type: 'dataChanged', path }]);
  });

  it('the server watch stays while a child watcher remains for children, and a data removal leaves child watchers alone', async () => {
    const path = `${root}/kinds`;
    await zk.create(path);
    const data = (await zk.getData(path, { watch: true })).watch;
    const child = (await zk.getChildren(path, { watch: true })).watch;
    await zk.removeWatcher(path, data, 'data');
    await zk.create(`${path}/x`);
    await expect(child).resolves.toMatchObject({ type: 'childrenChanged', path });
  });

  it('a watch still on its way (its read sent, not answered) keeps the server watch when the last registered watcher goes', async () => {
    const path = `${root}/in-flight`;
    await zk.create(path, 'a');
    const registered = (await zk.getData(path, { watch: true })).watch;
    const coming = zk.getData(path, { watch: true }); // sent now, answered after the removal below is sent
    await zk.removeWatcher(path, registered, 'data');
    const { watch } = await coming;
    await zk.setData(path, 'b');
    await expect(within(watch, 5000)).resolves.toMatchObject({ type: 'dataChanged', path });

    const first = await zk.addWatch(path, 'persistent');
    const second = zk.addWatch(path, 'persistent');
    await first.remove();
    const events: WatchEvent[] = [];
    (await second).on((e) => void events.push(e));
    await zk.setData(path, 'c');
    await until(() => events.length === 1, 5000, 'the persistent watch added while the other was removed');
    expect(events[0]).toMatchObject({ type: 'dataChanged', path });
    await (await second).remove();
  });

  it('NO_WATCHER for a watcher not set on that path or of another type; local removal never asks the server', async () => {
    const path = `${root}/errors`;
    await zk.create(path);
    const watch = (await zk.getData(path, { watch: true })).watch;
    const other = (): void => undefined;
    await expect(zk.removeWatcher(path, other, 'data')).rejects.toMatchObject({ code: 'NO_WATCHER' });
    await expect(zk.removeWatcher(path, watch, 'children')).rejects.toBeInstanceOf(ServerError);
    await expect(zk.removeWatcher(`${root}/elsewhere`, watch, 'data')).rejects.toMatchObject({ code: 'NO_WATCHER' });
    await expect(zk.removeWatcher(path, watch, 'bogus' as 'data')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });

    await zk.removeWatcher(path, watch, 'data', { local: true });
    await expect(watch).resolves.toMatchObject({ type: 'dataWatchRemoved' });
    expect(await serverWatches(path, zk.sessionId)).toBe(true);
    await expect(zk.removeWatcher(path, watch, 'data')).rejects.toMatchObject({ code: 'NO_WATCHER' });
  });

  it('removeWatches still removes every watcher of the path (the whole-path form)', async () => {
    const path = `${root}/all`;
    await zk.create(path);
    const one = (await zk.getData(path, { watch: true })).watch;
    const two = (await zk.getData(path, { watch: true })).watch;
    await zk.removeWatches(path, 'data');
    await expect(one).resolves.toMatchObject({ type: 'dataWatchRemoved' });
    await expect(two).resolves.toMatchObject({ type: 'dataWatchRemoved' });
    expect(await serverWatches(path, zk.sessionId)).toBe(false);
  });
});
