// Group membership against the real server: kazoo's Party / ShallowParty and Curator's GroupMember, their node
// layouts, the followed member list, re-joining after a connection cut that finds our node deleted and after
// an expiry and the client's renewal, bad input, and interop with kazoo (python3) and Curator (a JVM) in their
// own processes on the same path.
import { describe, expect, it } from 'vitest';

import { basename } from '@zkts/protocol';
import { GroupMember, Party, RecipeArgumentError, RecipeClosedError, ShallowParty } from '@zkts/recipes';

import { expireSession, victimClient } from '../../support/expiry.js';
import { checkKazoo, compileCurator, javaMain, kazooParty } from '../../support/foreign.js';
import { childrenOf, sharedServer, text, until, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

describe('Party and ShallowParty', () => {
  it("Party: kazoo's layout, members read and followed, join and leave seen by the others", async () => {
    const path = `${uniqueRoot()}/party`;
    const [ca, cb] = await clients.many(2);
    const a = new Party(ca!, path, { identifier: 'alpha' });
    const b = new Party(cb!, path, { identifier: 'beta' });
    const seen: string[][] = [];
    a.onChange((m) => seen.push(sorted(m)));
    await a.join({ timeout: 5000 });
    expect(basename(a.node)).toMatch(/^[0-9a-f]{32}__party__$/);
    expect(text((await ca!.getData(a.node)).data)).toBe('alpha');
    expect((await ca!.exists(a.node))!.ephemeralOwner).toBe(ca!.sessionId);
    await b.join({ timeout: 5000 });
    await until(() => a.current.length === 2 && b.current.length === 2, 5000, 'both see both');
    expect(sorted(a.current)).toEqual(['alpha', 'beta']);
    expect(sorted(await b.members())).toEqual(['alpha', 'beta']);
    expect(await b.size()).toBe(2);
    // A foreign child without the marker is no member.
    await ca!.create(`${path}/not-a-member`, 'x');
    expect(await a.size()).toBe(2);
    expect(sorted(await a.members())).toEqual(['alpha', 'beta']);

    await b.leave();
    expect(b.participating).toBe(false);
    await until(() => a.current.length === 1, 5000, 'a sees b leave');
    expect(a.current).toEqual(['alpha']);
    expect(seen).toEqual([['alpha'], ['alpha', 'beta'], ['alpha']]);
    await b.join({ timeout: 5000 });
    await until(() => a.current.length === 2, 5000, 'b back');
    await Promise.all([a.close(), b.close()]);
    expect(await childrenOf(ca!, path)).toEqual(['not-a-member']);
  });

  it("ShallowParty: the identifier in the name, members from one listing; changes() follows", async () => {
    const path = `${uniqueRoot()}/shallow`;
    const [ca, cb] = await clients.many(2);
    const a = new ShallowParty(ca!, path, { identifier: 'worker-1' });
    const b = new ShallowParty(cb!, path, { identifier: 'worker-2' });
    await a.join({ timeout: 5000 });
    expect(basename(a.node)).toMatch(/^[0-9a-f]{32}-worker-1$/);
    expect((await ca!.getData(a.node)).data.length).toBe(0);
    const controller = new AbortController();
    const lists: string[][] = [];
    const iterating = (async () => {
      for await (const m of a.changes({ signal: controller.signal })) lists.push(sorted(m));
    })();
    await b.join({ timeout: 5000 });
    await until(() => lists.length === 1, 5000, 'b joined');
    await b.close();
    await until(() => lists.length === 2, 5000, 'b left');
    controller.abort();
    await iterating;
    expect(lists).toEqual([['worker-1', 'worker-2'], ['worker-1']]);
    expect(await a.members()).toEqual(['worker-1']);
    await a.close();
  });

  it('re-joins by itself after a reconnect finds its node deleted, and after an expiry and renewal', async () => {
    const path = `${uniqueRoot()}/party`;
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    await using observer = new ShallowParty(other, path, { identifier: 'observer' });
    await observer.join({ timeout: 5000 });
    await using party = new ShallowParty(victim.client, path, { identifier: 'victim' });
    await party.join({ timeout: 5000 });
    await until(() => observer.current.length === 2, 5000, 'observer sees the victim');

    // Cut off; meanwhile its node is deleted; after the reconnect (same session) it is made again. The victim is
    // not left to notice the silence (suspended): that takes 2/3 of its 4 s session, and what then remains before
    // the server expires the session is too short for a loaded machine to delete, observe and reconnect in. The
    // delete's notification goes into the black hole either way, so the reconnect is what finds the node gone.
    const session = victim.client.sessionId;
    victim.proxy.blackhole();
    await other.delete(party.node);
    await until(() => observer.current.length === 1, 5000, 'observer sees the delete');
    victim.proxy.cut();
    victim.proxy.restore();
    await victim.client.connected({ timeout: 10_000 });
    expect(victim.client.sessionId).toBe(session);
    await until(async () => (await other.exists(party.node))?.ephemeralOwner === session, 10_000, 'made again');
    await until(() => sorted(observer.current).join() === 'observer,victim', 5000, 'observer sees it back');

    // Expiry and renewal: a new session, the same node name, made again in it.
    await expireSession(victim, { renewed: true });
    await until(async () => (await other.exists(party.node))?.ephemeralOwner === victim.client.sessionId, 10_000, 're-joined after the renewal');
    expect(victim.client.sessionId).not.toBe(session);
    await until(() => sorted(observer.current).join() === 'observer,victim' && sorted(party.current).join() === 'observer,victim', 5000, 'both views');
  });

  it('bad input: typed errors', async () => {
    const c = await clients.connect();
    expect(() => new Party(c, 'no-slash')).toThrow(RecipeArgumentError);
    expect(() => new ShallowParty(c, '/p', { identifier: 'a/b' })).toThrow(RecipeArgumentError);
    expect(() => new GroupMember(c, '/g', '')).toThrow(RecipeArgumentError);
    expect(() => new GroupMember(c, '/g', 'x/y')).toThrow(RecipeArgumentError);
    expect(() => new GroupMember(c, '/g/', 'x')).toThrow(expect.objectContaining({ code: 'INVALID_USE' }));
    const party = new Party(c, `${uniqueRoot()}/p`);
    await party.close();
    await expect(party.join()).rejects.toBeInstanceOf(RecipeClosedError);
    const member = new GroupMember(c, `${uniqueRoot()}/g`, 'me');
    await member.close();
    await expect(member.start()).rejects.toBeInstanceOf(RecipeClosedError);
  });
});

describe('GroupMember', () => {
  it("Curator's layout; members with payloads; setThisData seen by the others; close leaves", async () => {
    const path = `${uniqueRoot()}/group`;
    const [ca, cb] = await clients.many(2);
    const a = new GroupMember(ca!, path, 'a', { payload: 'pa' });
    const b = new GroupMember(cb!, path, 'b', { payload: 'pb' });
    // This instance always counts itself, even before it started.
    expect([...a.getCurrentMembers().keys()]).toEqual(['a']);
    await a.start({ timeout: 5000 });
    expect(a.currentPath).toBe(`${path}/a`);
    expect(text((await ca!.getData(`${path}/a`)).data)).toBe('pa');
    const changes: string[] = [];
    a.onChange((m) => changes.push([...m.keys()].sort().join()));
    await b.start({ timeout: 5000 });
    await until(() => a.getCurrentMembers().size === 2 && b.getCurrentMembers().size === 2, 5000, 'both see both');
    expect(text(a.getCurrentMembers().get('b')!)).toBe('pb');
    await b.setThisData('pb2');
    await until(() => text(a.getCurrentMembers().get('b') ?? new Uint8Array()) === 'pb2', 5000, 'new payload');
    expect(a.idFromPath(`${path}/b`)).toBe('b');
    await b.close();
    await until(() => a.getCurrentMembers().size === 1, 5000, 'b left');
    expect(changes[0]).toBe('a,b');
    expect(changes.at(-1)).toBe('a');
    await a.close();
    expect(await childrenOf(ca!, path)).toEqual([]);
  });

  it('re-joins after an expiry and renewal, with its latest payload', async () => {
    const path = `${uniqueRoot()}/group`;
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    await using watcher = new GroupMember(other, path, 'watcher');
    await watcher.start({ timeout: 5000 });
    await using member = new GroupMember(victim.client, path, 'victim', { payload: 'v1' });
    await member.start({ timeout: 5000 });
    await member.setThisData('v2');
    await until(() => watcher.getCurrentMembers().has('victim'), 5000, 'seen');
    await expireSession(victim, { renewed: true });
    await until(async () => (await other.exists(`${path}/victim`))?.ephemeralOwner === victim.client.sessionId, 10_000, 're-joined');
    await until(() => text(watcher.getCurrentMembers().get('victim') ?? new Uint8Array()) === 'v2', 5000, 'seen again with its payload');
    await until(() => member.getCurrentMembers().has('watcher'), 5000, 'its own view after the renewal');
  });
});

describe('interop', () => {
  for (const kind of ['party', 'shallow'] as const) {
    it(`kazoo ${kind === 'party' ? 'Party' : 'ShallowParty'} in python3 and ours see each other on one path`, async () => {
      checkKazoo();
      const path = `${uniqueRoot()}/${kind}`;
      const c = await clients.connect();
      await using ours = kind === 'party' ? new Party(c, path, { identifier: 'zkts-member' }) : new ShallowParty(c, path, { identifier: 'zkts-member' });
      await ours.join({ timeout: 5000 });
      const py = kazooParty(sharedServer(), path, kind, 'kazoo-member', 'zkts-member');
      await py.line(/SAW zkts-member/, 30_000);
      expect((await py.line(/MEMBERS (\S+)/))[1]).toBe('kazoo-member,zkts-member');
      await until(() => ours.current.includes('kazoo-member'), 5000, 'we see kazoo');
      expect(sorted(await ours.members())).toEqual(['kazoo-member', 'zkts-member']);
      py.proc.stdin!.write('\n');
      await py.line(/LEFT/);
      await until(() => !ours.current.includes('kazoo-member'), 5000, 'we see kazoo leave');
      expect(await py.exited).toBe(0);
    }, 60_000);
  }

  it("Curator's GroupMember in a JVM and ours see each other with payloads", async () => {
    const compiled = compileCurator('CuratorGroups.java');
    try {
      const path = `${uniqueRoot()}/group`;
      const c = await clients.connect();
      await using ours = new GroupMember(c, path, 'zkts', { payload: 'from-zkts' });
      await ours.start({ timeout: 5000 });
      const jvm = javaMain(compiled.classpath, 'CuratorGroups', 'group', sharedServer(), path, 'curator', 'from-curator', 'zkts');
      await jvm.line(/SAW zkts from-zkts/, 60_000);
      expect((await jvm.line(/MEMBERS (\S+)/))[1]).toBe('curator,zkts');
      await until(() => ours.getCurrentMembers().has('curator'), 10_000, 'we see Curator');
      expect(text(ours.getCurrentMembers().get('curator')!)).toBe('from-curator');
      jvm.proc.stdin!.write('\n');
      await jvm.line(/LEFT/);
      await until(() => !ours.getCurrentMembers().has('curator'), 10_000, 'we see Curator leave');
      expect(await jvm.exited).toBe(0);
    } finally {
      compiled.dispose();
    }
  }, 90_000);
});
