// The server acts on quotas zkts wrote (so it found them where zkCli puts them): a ZooKeeper 3.8 server started
// with -Dzookeeper.enforceQuota=true refuses a create past a hard count limit and a setData past a hard bytes
// limit with QUOTA_EXCEEDED (-125, a ServerError with that code), and only logs a soft limit's excess ("Quota
// exceeded: PATH [current count=N, softCountLimit=M]"), letting the write through. (Without enforceQuota the
// server only counts: quotas.test.ts shows a hard limit passed on the shared server.)
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { KeeperCode, ServerError } from '@zkts/protocol';
import { getQuota, setQuota } from '@zkts/recipes';
import { LocalZooKeeperServer, startZooKeeper } from '@zkts/testkit';

import { Clients, uniqueRoot, until } from '../../support/helpers.js';

const clients = new Clients();
let server: LocalZooKeeperServer;

beforeAll(async () => {
  const started = await startZooKeeper({ backend: 'local', tickTime: 500, systemProperties: { 'zookeeper.enforceQuota': true } });
  if (!(started instanceof LocalZooKeeperServer)) throw new Error('the soft-limit check reads the server log: it needs the local backend');
  server = started;
});
afterAll(async () => {
  await server?.[Symbol.asyncDispose]();
});
afterEach(async () => {
  await clients.closeAll();
});

describe('a server enforcing quotas', () => {
  it('refuses a create past the hard count limit with QUOTA_EXCEEDED', async () => {
    const zk = await clients.connect(server.connectString);
    const root = uniqueRoot('hard-count');
    await zk.create(root);
    await setQuota(zk, root, { countHardLimit: 3 });
    await zk.create(`${root}/a`);
    await zk.create(`${root}/b`);
    const error = await zk.create(`${root}/c`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: 'QUOTA_EXCEEDED', keeperCode: KeeperCode.QUOTA_EXCEEDED });
    expect((error as ServerError).keeperCode).toBe(-125);
    expect(await zk.exists(`${root}/c`)).toBeNull();
    expect((await getQuota(zk, root))?.stats).toEqual({ count: 3, bytes: 0 });
    // Outside the quota's subtree nothing is limited.
    await expect(zk.create(`${root}-sibling`)).resolves.toBeDefined();
  });

  it('refuses a setData past the hard bytes limit, and a create bringing data past it', async () => {
    const zk = await clients.connect(server.connectString);
    const root = uniqueRoot('hard-bytes');
    await zk.create(root);
    await setQuota(zk, root, { bytesHardLimit: 10 });
    await zk.setData(root, '0123456789');
    await expect(zk.setData(root, '0123456789x')).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect((await zk.getData(root)).data.toString()).toBe('0123456789');
    await zk.setData(root, '01234');
    await expect(zk.create(`${root}/child`, '012345')).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    await expect(zk.create(`${root}/child`, '01234')).resolves.toBeDefined();
    expect((await getQuota(zk, root))?.stats).toEqual({ count: 2, bytes: 10 });
  });

  it('lets writes past a soft limit through and logs them', async () => {
    const zk = await clients.connect(server.connectString);
    const root = uniqueRoot('soft-count');
    await zk.create(root);
    await setQuota(zk, root, { count: 1 });
    await zk.create(`${root}/a`);
    await zk.create(`${root}/b`);
    expect((await getQuota(zk, root))?.stats).toEqual({ count: 3, bytes: 0 });
    const line = `Quota exceeded: ${root} [current count=2, softCountLimit=1]`;
    await until(async () => (await server.logTail(400)).includes(line), 10_000, `"${line}" in the server log`);
  });

  it('a hard limit set later applies to the next write, with the usage counted before it', async () => {
    const zk = await clients.connect(server.connectString);
    const root = uniqueRoot('later');
    await zk.mkdirp(`${root}/a/b`);
    // The usage is counted when the quota is made, not from the writes after it.
    expect((await setQuota(zk, root, { count: 100 })).stats).toEqual({ count: 3, bytes: 0 });
    await setQuota(zk, root, { countHardLimit: 3 });
    await expect(zk.create(`${root}/c`)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
  });
});
