// Quotas against a real ZooKeeper 3.8: setQuota writes zkCli's layout and text (checked on the raw nodes), the
// server then counts the subtree in the stats node, getQuota/listQuotas read it back, updates change only the
// limits given, deleteQuota unsets limits or removes the quota and the empty directories; nested quotas are
// refused both ways without writing anything; text that is not StatsTrack's is a QuotaFormatError.
import { afterEach, describe, expect, it } from 'vitest';

import { ServerError, type ZkClient } from '@zkts/protocol';
import {
  deleteQuota, getQuota, listQuotas, QuotaConflictError, QuotaFormatError, RecipeArgumentError, setQuota,
} from '@zkts/recipes';

import { Clients, sharedServer, text, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
/** Quotas a test made, removed after it (the shared server outlives the test file). */
const made: { client: ZkClient; path: string }[] = [];
afterEach(async () => {
  for (const { client, path } of made.splice(0)) await deleteQuota(client, path).catch(() => undefined);
  await clients.closeAll();
});

const raw = async (client: ZkClient, path: string): Promise<string> => text((await client.getData(path)).data);
const limitsNode = (path: string): string => `/zookeeper/quota${path}/zookeeper_limits`;
const statsNode = (path: string): string => `/zookeeper/quota${path}/zookeeper_stats`;

async function tree(client: ZkClient, root: string, children: Record<string, string>): Promise<void> {
  await client.create(root, 'root');
  for (const [name, data] of Object.entries(children)) await client.create(`${root}/${name}`, data);
}

describe('quotas', () => {
  it('set, get, list, update and delete on the nodes zkCli uses', async () => {
    const zk = await clients.connect();
    const root = uniqueRoot('quota');
    await tree(zk, root, { a: 'xx', b: 'yyy' });
    made.push({ client: zk, path: root });

    const quota = await setQuota(zk, root, { count: 10, bytesHardLimit: 1000 });
    expect(quota).toEqual({ path: root, limits: { count: 10, bytesHardLimit: 1000 }, stats: { count: 3, bytes: 9 } });
    // zkCli's StatsTrack text, byte for byte: every key set, -1 for the ones not given.
    expect(await raw(zk, limitsNode(root))).toBe('count=10,bytes=-1=;byteHardLimit=1000;countHardLimit=-1');
    // The stats node was written `count=0,bytes=0`; the server counted the subtree when it appeared.
    expect(await raw(zk, statsNode(root))).toBe('count=3,bytes=9');
    expect(await getQuota(zk, root)).toEqual(quota);
    expect(await listQuotas(zk)).toContainEqual(quota);

    // The server keeps the usage up to date.
    await zk.create(`${root}/c`, 'zzzz');
    expect((await getQuota(zk, root))?.stats).toEqual({ count: 4, bytes: 13 });

    // Another setQuota changes only the limits it names.
    expect((await setQuota(zk, root, { bytes: 50, countHardLimit: 20 })).limits).toEqual({ count: 10, bytes: 50, countHardLimit: 20, bytesHardLimit: 1000 });
    expect(await raw(zk, limitsNode(root))).toBe('count=10,bytes=50=;byteHardLimit=1000;countHardLimit=20');

    // delquota -n / -B: those limits unset, the quota stays.
    expect(await deleteQuota(zk, root, { count: true, bytesHardLimit: true })).toBe(true);
    expect((await getQuota(zk, root))?.limits).toEqual({ bytes: 50, countHardLimit: 20 });
    expect(await raw(zk, limitsNode(root))).toBe('count=-1,bytes=50=;byteHardLimit=-1;countHardLimit=20');

    // delquota PATH: the quota and its directory go.
    expect(await deleteQuota(zk, root)).toBe(true);
    expect(await getQuota(zk, root)).toBeUndefined();
    expect(await zk.exists(`/zookeeper/quota${root}`)).toBeNull();
    expect((await listQuotas(zk)).map((q) => q.path)).not.toContain(root);
    expect(await deleteQuota(zk, root)).toBe(false);
    expect(await deleteQuota(zk, root, { count: true })).toBe(false);
  });

  it('a deep path: directories made for it, and removed up to the first one still used', async () => {
    const zk = await clients.connect();
    const root = uniqueRoot('quota');
    await zk.mkdirp(`${root}/x/deep`);
    await zk.mkdirp(`${root}/y`);
    made.push({ client: zk, path: `${root}/x/deep` }, { client: zk, path: `${root}/y` });
    await setQuota(zk, `${root}/x/deep`, { count: 5 });
    await setQuota(zk, `${root}/y`, { bytes: 5 });
    expect((await zk.getChildren(`/zookeeper/quota${root}`)).children.sort()).toEqual(['x', 'y']);
    expect((await listQuotas(zk)).map((q) => q.path).filter((p) => p.startsWith(root))).toEqual([`${root}/x/deep`, `${root}/y`]);

    await deleteQuota(zk, `${root}/x/deep`);
    // `x` went (it was empty), the root's directory stays for `y`.
    expect((await zk.getChildren(`/zookeeper/quota${root}`)).children).toEqual(['y']);
    await deleteQuota(zk, `${root}/y`);
    expect(await zk.exists(`/zookeeper/quota${root}`)).toBeNull();
  });

  it('refuses a quota under or above another one, and writes nothing', async () => {
    const zk = await clients.connect();
    const root = uniqueRoot('quota');
    await zk.mkdirp(`${root}/a/b/c`);
    made.push({ client: zk, path: `${root}/a` });
    await setQuota(zk, `${root}/a`, { count: 100 });

    const below = await setQuota(zk, `${root}/a/b/c`, { count: 5 }).catch((e: unknown) => e);
    expect(below).toBeInstanceOf(QuotaConflictError);
    expect(below).toMatchObject({ code: 'QUOTA_CONFLICT', path: `${root}/a/b/c`, conflictingPath: `${root}/a`, relation: 'ancestor' });
    expect((below as Error).message).toBe(`${root}/a/b/c has a parent ${root}/a which has a quota`);
    expect(await zk.exists(`/zookeeper/quota${root}/a/b`)).toBeNull();

    const above = await setQuota(zk, root, { count: 5 }).catch((e: unknown) => e);
    expect(above).toMatchObject({ code: 'QUOTA_CONFLICT', path: root, conflictingPath: `${root}/a`, relation: 'descendant' });
    expect(await zk.exists(limitsNode(root))).toBeNull();

    // A sibling is not nested: allowed.
    await zk.create(`${root}/s`);
    made.push({ client: zk, path: `${root}/s` });
    await expect(setQuota(zk, `${root}/s`, { count: 2 })).resolves.toMatchObject({ path: `${root}/s` });
    // Once the quota above is gone, the one below may be set.
    await deleteQuota(zk, `${root}/a`);
    made.push({ client: zk, path: `${root}/a/b/c` });
    await expect(setQuota(zk, `${root}/a/b/c`, { count: 5 })).resolves.toMatchObject({ stats: { count: 1, bytes: 0 } });
  });

  it('a server without -Dzookeeper.enforceQuota=true only counts: a hard limit is passed', async () => {
    const zk = await clients.connect();
    const root = uniqueRoot('quota');
    await zk.create(root);
    made.push({ client: zk, path: root });
    await setQuota(zk, root, { countHardLimit: 1 });
    await zk.create(`${root}/over`);
    expect((await getQuota(zk, root))?.stats).toEqual({ count: 2, bytes: 0 });
  });

  it('a node that does not exist gets no quota (NO_NODE), and nothing is written', async () => {
    const zk = await clients.connect();
    const root = uniqueRoot('quota');
    const error = await setQuota(zk, root, { count: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: 'NO_NODE', path: root });
    expect(await zk.exists(`/zookeeper/quota${root}`)).toBeNull();
  });

  it('keeps keys it does not know when it rewrites the limits, as StatsTrack does', async () => {
    const zk = await clients.connect();
    const root = uniqueRoot('quota');
    await zk.create(root);
    made.push({ client: zk, path: root });
    await zk.mkdirp(`/zookeeper/quota${root}`);
    await zk.create(limitsNode(root), 'count=5,bytes=-1=;zzz=7;aaa=1');
    await zk.create(statsNode(root), 'count=0,bytes=0');
    expect((await getQuota(zk, root))?.limits).toEqual({ count: 5 });
    await setQuota(zk, root, { bytes: 9 });
    expect(await raw(zk, limitsNode(root))).toBe('count=5,bytes=9=;aaa=1;zzz=7');
  });

  it('text that is not StatsTrack\'s is a QuotaFormatError naming the node', async () => {
    const zk = await clients.connect();
    const root = uniqueRoot('quota');
    await zk.create(root);
    made.push({ client: zk, path: root });
    await zk.mkdirp(`/zookeeper/quota${root}`);
    await zk.create(limitsNode(root), 'count=many,bytes=-1');
    const error = await getQuota(zk, root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaFormatError);
    expect(error).toMatchObject({ code: 'QUOTA_FORMAT', path: limitsNode(root) });
    // setQuota would have to rewrite it: it refuses the same way instead of guessing.
    await expect(setQuota(zk, root, { count: 3 })).rejects.toMatchObject({ code: 'QUOTA_FORMAT' });
    expect(await raw(zk, limitsNode(root))).toBe('count=many,bytes=-1');
  });

  it('a signal ends the call; a chrooted client is refused (quotas live outside its chroot)', async () => {
    const zk = await clients.connect();
    await expect(getQuota(zk, '/anything', { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ABORTED' });
    const root = uniqueRoot('quota');
    await zk.create(root);
    const chrooted = await clients.connect(`${sharedServer()}${root}`);
    const error = await setQuota(chrooted, '/x', { count: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecipeArgumentError);
    expect((error as Error).message).toContain(`chroot '${root}'`);
    await expect(listQuotas(chrooted)).rejects.toBeInstanceOf(RecipeArgumentError);
  });
});
