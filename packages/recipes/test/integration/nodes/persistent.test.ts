// PersistentNode, PersistentTtlNode and PersistentWatcher against the real server, through an expiry and the
// client's renewal (session take-over behind a fault proxy), an external delete, a reconnect and a removed watch.
import { describe, expect, it } from 'vitest';

import type { WatchEvent, ZkClient } from '@zkts/protocol';
import { PersistentNode, PersistentTtlNode, PersistentWatcher } from '@zkts/recipes';

import { expireSession, victimClient } from '../../support/expiry.js';
import { childrenOf, text, until, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

describe('PersistentNode', () => {
  it('protected ephemeral-sequential: exists again with a new path and owner after a renewal and after an external delete', async () => {
    const dir = `${uniqueRoot()}/services`;
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    const node = new PersistentNode(victim.client, `${dir}/member-`, { mode: 'ephemeral-sequential', data: 'host-a' });
    const seen: (string | undefined)[] = [];
    node.onChange((p) => seen.push(p));
    node.start();
    const p1 = await node.awaitCreated({ timeout: 5000 });
    expect(p1).toMatch(new RegExp(`^${dir}/_c_[0-9a-f-]{36}-member-\\d{10}$`));
    const s1 = victim.client.sessionId;
    expect((await other.exists(p1))!.ephemeralOwner).toBe(s1);

    await expireSession(victim, { renewed: true });
    await until(() => node.currentPath !== undefined && node.currentPath !== p1, 5000, 'made again after the renewal');
    const p2 = node.currentPath!;
    expect(await other.exists(p1)).toBeNull();
    const { data, stat } = await other.getData(p2);
    expect(stat.ephemeralOwner).toBe(victim.client.sessionId);
    expect(stat.ephemeralOwner).not.toBe(s1);
    expect(text(data)).toBe('host-a');

    await other.delete(p2);
    await until(() => node.currentPath !== undefined && node.currentPath !== p2, 5000, 'made again after a delete');
    const p3 = node.currentPath!;
    expect((await other.exists(p3))!.ephemeralOwner).toBe(victim.client.sessionId);
    expect(await childrenOf(other, dir)).toEqual([p3.slice(dir.length + 1)]);
    expect(seen).toEqual([p1, undefined, p2, undefined, p3]);

    await node.close();
    expect(node.currentPath).toBeUndefined();
    expect(await childrenOf(other, dir)).toEqual([]);
  });

  it('fixed-path ephemeral: re-created at the same path with a new czxid; close deletes it', async () => {
    const path = `${uniqueRoot()}/leader-info`;
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    await using node = new PersistentNode(victim.client, path, { data: 'v1' });
    node.start();
    expect(await node.awaitCreated({ timeout: 5000 })).toBe(path);
    const first = (await other.exists(path))!;
    await node.setData('v2');
    await expireSession(victim, { renewed: true });
    await until(async () => (await other.exists(path))?.ephemeralOwner === victim.client.sessionId, 5000, 're-created');
    const again = await other.getData(path);
    expect(again.stat.czxid > first.czxid).toBe(true);
    expect(text(again.data)).toBe('v2');
    // The victim's client learns of its node from the create's reply, which comes through the proxy and may
    // arrive after another client has already read the node: wait for the reply rather than race it.
    expect(await node.awaitCreated({ timeout: 5000 })).toBe(path);
    expect(node.currentPath).toBe(path);
  });
});

describe('PersistentTtlNode', () => {
  it('a container with a TTL child touched every ttl/2; kept through a renewal, made again after a delete; close removes it', async () => {
    const path = `${uniqueRoot()}/registry/me`;
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    const node = new PersistentTtlNode(victim.client, path, 1000, { data: 'addr' });
    node.start();
    await node.awaitCreated({ timeout: 5000 });
    await until(async () => (await other.exists(`${path}/touch`)) !== null, 5000, 'touch child');
    const container = (await other.exists(path))!;
    expect(container.ephemeralOwner).toBe(0n);
    const touched = (await other.exists(`${path}/touch`))!.mtime;
    await until(async () => (await other.exists(`${path}/touch`))!.mtime > touched, 3000, 'touched again');

    await expireSession(victim, { renewed: true });
    const before = node.touches;
    await until(() => node.touches > before, 3000, 'touching in the new session');
    expect((await other.exists(path))!.czxid).toBe(container.czxid); // not a session's node: kept as it was

    await other.multi([{ op: 'delete', path: `${path}/touch` }, { op: 'delete', path }]);
    await until(async () => (await other.exists(`${path}/touch`)) !== null, 5000, 'made again after a delete');
    expect(text((await other.getData(path)).data)).toBe('addr');

    await node.close();
    expect(await other.exists(path)).toBeNull();
  });
});

/** Collects a watcher's events. */
function collect(w: PersistentWatcher): WatchEvent[] {
  const events: WatchEvent[] = [];
  w.on((e) => events.push(e));
  return events;
}
const kinds = (events: WatchEvent[]): string[] => events.map((e) => `${e.type} ${e.path}`);

describe('PersistentWatcher', () => {
  it('recursive: delivers resync after a reconnect, after a renewal, and after its watch was removed, then new events', async () => {
    const root = uniqueRoot();
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    await other.create(root, null);
    const w = new PersistentWatcher(victim.client, root, { recursive: true });
    const events = collect(w);
    await w.start();
    await other.create(`${root}/a`, null);
    await until(() => events.length === 1, 5000, 'first event');
    expect(kinds(events)).toEqual([`created ${root}/a`]);

    // A reconnect in the same session: what changed while cut off is not replayed, so a resync marker comes first.
    const session = victim.client.sessionId;
    victim.proxy.blackhole();
    victim.proxy.cut();
    await until(() => victim.client.state === 'suspended', 5000, 'suspended');
    await other.setData(`${root}/a`, 'missed');
    victim.proxy.restore();
    await victim.client.connected({ timeout: 5000 });
    expect(victim.client.sessionId).toBe(session);
    await until(() => events.length === 2, 5000, 'resync');
    // What a reader does on resync: read again. The read goes after the client's re-arming of the watch on the
    // same connection, so every change after it is heard (a change by another client may race the re-arming).
    await victim.client.getChildren(root);
    await other.create(`${root}/b`, null);
    await until(() => events.length === 3, 5000, 'resync + b');
    expect(kinds(events.slice(1))).toEqual([`resync ${root}`, `created ${root}/b`]);

    // Renewal: one resync (the client's own is folded into ours), then events of the new session.
    await expireSession(victim, { renewed: true });
    await until(() => events.length === 4, 5000, 'resync');
    await victim.client.getChildren(root);
    await other.create(`${root}/b/c`, null);
    await until(() => events.length === 5, 5000, 'resync + c');
    expect(kinds(events.slice(3))).toEqual([`resync ${root}`, `created ${root}/b/c`]);

    // Someone removes the watch on our client: it is added again, with a resync marker.
    await victim.client.removeWatches(root, 'persistent-recursive');
    await until(() => w.adds === 2, 5000, 're-added');
    await other.delete(`${root}/b/c`);
    await until(() => events.length === 7, 5000, 'resync + delete');
    expect(kinds(events.slice(5))).toEqual([`resync ${root}`, `deleted ${root}/b/c`]);

    const iterated: string[] = [];
    const reading = (async () => {
      for await (const e of w) iterated.push(e.type);
    })();
    await other.setData(root, 'x');
    await until(() => iterated.length === 1, 5000, 'iterated');
    await w.close();
    await reading;
    expect(iterated).toEqual(['dataChanged']);
    await other.create(`${root}/after`, null);
    expect(events).toHaveLength(8);
  });

  it("on a client with renewWatches: false the watch ends at expiry; the watcher adds it again in the new session", async () => {
    const root = uniqueRoot();
    const victim = await victimClient(clients, proxies, { renewWatches: false });
    const other: ZkClient = await clients.connect();
    await other.create(root, null);
    await using w = new PersistentWatcher(victim.client, root);
    const events = collect(w);
    await w.start();
    await expireSession(victim, { renewed: true });
    await until(() => w.adds === 2, 5000, 're-added in the new session');
    await other.create(`${root}/x`, null);
    await until(() => events.length === 2, 5000, 'resync + x');
    expect(kinds(events)).toEqual([`resync ${root}`, `childrenChanged ${root}`]);
  });
});
