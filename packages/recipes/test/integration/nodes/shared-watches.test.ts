// Recipes sharing a session and a watched path: one ending its watch must not silence the other's, and the
// server's watch goes only with the last watcher of the session (checked with the `wchp` four-letter word).
import { afterEach, describe, expect, it } from 'vitest';
import { fourLetter } from '@zkts/testkit';
import { TreeCache, Mutex, type CacheEvent } from '../../../src/index.js';
import { Clients, childrenOf, sharedServer, uniqueRoot, until } from '../../support/helpers.js';

const clients = new Clients();
afterEach(() => clients.closeAll());

/** Whether the server holds a watch of `session` on `path` (wchp: each path, then its sessions indented). */
async function serverWatches(path: string, session: bigint): Promise<boolean> {
  const first = sharedServer().split(',')[0] ?? '';
  const colon = first.lastIndexOf(':');
  const answer = await fourLetter({ host: first.slice(0, colon), port: Number(first.slice(colon + 1)) }, 'wchp');
  const lines = answer.split('\n');
  const at = lines.findIndex((l) => l.trim() === path);
  if (at < 0) return false;
  for (let i = at + 1; i < lines.length && /^\s/.test(lines[i] ?? ''); i++) if (lines[i]!.trim() === `0x${session.toString(16)}`) return true;
  return false;
}

describe('recipes sharing a watched path on one session', () => {
  it('a mutex waiter that gives up removes only its own watch: another watcher of the node still hears the deletion', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const [a, b] = await clients.many(2);
    const held = await new Mutex(a!, dir).acquire();
    const [holder] = await childrenOf(a!, dir);
    const node = `${dir}/${holder!}`;
    // Another user of b's session watches the holder's node (a one-shot data watch, like the waiter's).
    const other = (await b!.getData(node, { watch: true })).watch;
    await expect(new Mutex(b!, dir).acquire({ timeout: 300 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    // The waiter's node is gone and its watch removed; the server still holds the other watcher's.
    await until(async () => (await childrenOf(a!, dir)).length === 1, 10_000, 'the timed-out waiter to leave');
    expect(await serverWatches(node, b!.sessionId)).toBe(true);
    await held.release();
    await expect(other).resolves.toMatchObject({ type: 'deleted', path: node });
  });

  it('two caches on one path: closing one leaves the other its events; closing the last removes the server watch', async () => {
    const root = uniqueRoot();
    const [writer, reader] = await clients.many(2);
    await writer!.create(root, 'v0');
    const first = new TreeCache(reader!, root);
    const second = new TreeCache(reader!, root);
    const seen: CacheEvent<Uint8Array>[] = [];
    second.on((e) => void seen.push(e));
    await Promise.all([first.start(), second.start()]);
    expect(await serverWatches(root, reader!.sessionId)).toBe(true);

    await first.close();
    expect(await serverWatches(root, reader!.sessionId)).toBe(true);
    await writer!.setData(root, 'v1');
    await until(() => seen.some((e) => e.type === 'changed' && e.path === root), 10_000, 'the open cache to see the change');

    await second.close();
    await until(async () => !(await serverWatches(root, reader!.sessionId)), 10_000, 'the server watch to go with the last cache');
  });
});
