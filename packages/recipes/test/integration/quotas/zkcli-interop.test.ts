// zkts and ZooKeeper's own zkCli (org.apache.zookeeper.ZooKeeperMain 3.8, in its own JVM) on one server: zkCli's
// listquota reads what setQuota wrote, getQuota reads what zkCli's setquota wrote (also after a second setquota
// merged into it), both write the same bytes for the same limits, each refuses a quota nested in the other's, and
// delquota and deleteQuota undo each other's quotas (partly and wholly).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { ZkClient } from '@zkts/protocol';
import { deleteQuota, getQuota, listQuotas, setQuota } from '@zkts/recipes';

import { checkZkCli, zkCli } from '../../../../../test/support/zkcli.js';
import { Clients, sharedServer, text, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
const made: { client: ZkClient; path: string }[] = [];
beforeAll(() => {
  checkZkCli();
});
afterEach(async () => {
  for (const { client, path } of made.splice(0)) await deleteQuota(client, path).catch(() => undefined);
  await clients.closeAll();
});

const limitsText = async (zk: ZkClient, path: string): Promise<string> => text((await zk.getData(`/zookeeper/quota${path}/zookeeper_limits`)).data);

/** Runs zkCli and expects exit 0. */
async function cli(...args: string[]): Promise<string> {
  const r = await zkCli(sharedServer(), args);
  expect(r.code, `zkCli ${args.join(' ')}: ${r.out} ${r.err}`).toBe(0);
  return r.out;
}

describe('quotas shared with zkCli', () => {
  it('zkCli listquota reads a quota zkts set, with the usage the server counts', async () => {
    const zk = await clients.connect();
    const root = uniqueRoot('zkcli-quota');
    await zk.create(root, 'abc');
    await zk.create(`${root}/child`, 'de');
    made.push({ client: zk, path: root });
    await setQuota(zk, root, { count: 5, bytesHardLimit: 100 });
    const out = await cli('listquota', root);
    expect(out).toContain(`Output quota for ${root} count=5,bytes=-1=;byteHardLimit=100;countHardLimit=-1`);
    expect(out).toContain(`Output stat for ${root} count=2,bytes=5`);
  });

  it('zkts reads what zkCli setquota wrote, merged across two setquota calls, and writes the same bytes', async () => {
    const zk = await clients.connect();
    const root = uniqueRoot('zkcli-quota');
    await zk.create(root);
    await zk.create(`${root}/cli`, 'xyz');
    await zk.create(`${root}/ours`);
    made.push({ client: zk, path: `${root}/cli` }, { client: zk, path: `${root}/ours` });

    await cli('setquota', '-n', '7', `${root}/cli`);
    await setQuota(zk, `${root}/ours`, { count: 7 });
    expect(await limitsText(zk, `${root}/ours`)).toBe(await limitsText(zk, `${root}/cli`));

    // zkCli takes one flag per call; the second one keeps the first limit.
    await cli('setquota', '-B', '50', `${root}/cli`);
    await setQuota(zk, `${root}/ours`, { bytesHardLimit: 50 });
    expect(await limitsText(zk, `${root}/ours`)).toBe(await limitsText(zk, `${root}/cli`));
    expect(await getQuota(zk, `${root}/cli`)).toEqual({ path: `${root}/cli`, limits: { count: 7, bytesHardLimit: 50 }, stats: { count: 1, bytes: 3 } });
    expect((await listQuotas(zk)).map((q) => q.path)).toEqual(expect.arrayContaining([`${root}/cli`, `${root}/ours`]));
  });

  it('each refuses a quota nested in one the other made', async () => {
    const zk = await clients.connect();
    const root = uniqueRoot('zkcli-quota');
    await zk.mkdirp(`${root}/cli/deep`);
    await zk.mkdirp(`${root}/ours/deep`);
    made.push({ client: zk, path: `${root}/cli` }, { client: zk, path: `${root}/ours` });
    await cli('setquota', '-n', '10', `${root}/cli`);
    await setQuota(zk, `${root}/ours`, { count: 10 });

    await expect(setQuota(zk, `${root}/cli/deep`, { count: 1 })).rejects.toMatchObject({ code: 'QUOTA_CONFLICT', relation: 'ancestor', conflictingPath: `${root}/cli` });
    await expect(setQuota(zk, root, { count: 1 })).rejects.toMatchObject({ code: 'QUOTA_CONFLICT', relation: 'descendant' });
    // zkCli says so on stderr with its own words, which our message repeats.
    const below = await zkCli(sharedServer(), ['setquota', '-n', '1', `${root}/ours/deep`]);
    expect(below.err).toContain(`${root}/ours/deep has a parent ${root}/ours which has a quota`);
    const above = await zkCli(sharedServer(), ['setquota', '-n', '1', root]);
    expect(above.err).toMatch(new RegExp(`${root} has a child ${root}/(cli|ours) which has a quota`));
    expect(await zk.exists(`/zookeeper/quota${root}/ours/deep`)).toBeNull();
    expect(await zk.exists(`/zookeeper/quota${root}/zookeeper_limits`)).toBeNull();
  });

  it('delquota and deleteQuota undo each other\'s quotas', async () => {
    const zk = await clients.connect();
    const root = uniqueRoot('zkcli-quota');
    await zk.mkdirp(`${root}/cli`);
    await zk.mkdirp(`${root}/ours`);
    made.push({ client: zk, path: `${root}/cli` }, { client: zk, path: `${root}/ours` });
    await setQuota(zk, `${root}/ours`, { count: 10, bytes: 20, countHardLimit: 30 });
    await cli('setquota', '-n', '10', `${root}/cli`);

    // delquota -b on ours: only bytes unset.
    await cli('delquota', '-b', `${root}/ours`);
    expect((await getQuota(zk, `${root}/ours`))?.limits).toEqual({ count: 10, countHardLimit: 30 });
    // delquota on ours: gone, directories and all (the root's stays for cli's).
    await cli('delquota', `${root}/ours`);
    expect(await getQuota(zk, `${root}/ours`)).toBeUndefined();
    expect((await zk.getChildren(`/zookeeper/quota${root}`)).children).toEqual(['cli']);

    // deleteQuota on zkCli's: zkCli no longer finds it, and the quota tree of the root is gone.
    expect(await deleteQuota(zk, `${root}/cli`)).toBe(true);
    const out = await zkCli(sharedServer(), ['listquota', `${root}/cli`]);
    expect(out.err).toContain(`quota for ${root}/cli does not exist.`);
    expect(await zk.exists(`/zookeeper/quota${root}`)).toBeNull();
  });
});
