// `zkts quota` and zkCli's names for it (setquota, listquota, delquota) against a real server: their output,
// JSON and exit codes; the same listquota lines as ZooKeeper's own zkCli (run in its JVM) prints for a quota
// either tool set; nested quotas refused; and, on a server started with -Dzookeeper.enforceQuota=true, a write
// past a hard limit reported as QUOTA_EXCEEDED.
import { connect, type ZkClient } from '@zkts/protocol';
import { deleteQuota } from '@zkts/recipes';
import { startZooKeeper, type ZooKeeperServer } from '@zkts/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { checkZkCli, zkCli } from '../../../../test/support/zkcli.js';
import { jsonLines, sharedServer, uniqueRoot, zkts } from '../support/cli.js';

const server = sharedServer();
const s = ['--server', server];
let client: ZkClient;
const quotas: string[] = [];

beforeAll(async () => {
  checkZkCli();
  client = await connect(server);
});
afterEach(async () => {
  for (const path of quotas.splice(0)) await deleteQuota(client, path).catch(() => undefined);
});
afterAll(async () => {
  await client.close();
});

/** zkCli's "Output quota/stat for" lines (its stdout also has nothing else but they are picked to be sure). */
const outputLines = (out: string): string => out.split('\n').filter((l) => l.startsWith('Output ')).join('\n');

describe('zkts quota', { timeout: 300_000 }, () => {
  it('set, get, list and rm, with JSON and exit codes', async () => {
    const root = uniqueRoot('quota');
    await client.create(root, 'abc');
    await client.create(`${root}/child`, 'de');
    quotas.push(root);

    expect(await zkts([...s, 'quota', 'set', root, '-n', '5', '-B', '100'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await zkts([...s, 'quota', 'get', root])).toMatchObject({
      code: 0,
      stdout: `Output quota for ${root} count=5,bytes=-1=;byteHardLimit=100;countHardLimit=-1\nOutput stat for ${root} count=2,bytes=5\n`,
    });
    const json = await zkts([...s, '--json', 'quota', 'get', root]);
    expect(JSON.parse(json.stdout)).toEqual({ path: root, limits: { count: 5, bytesHardLimit: 100 }, stats: { count: 2, bytes: 5 } });
    const listed = jsonLines((await zkts([...s, '--json', 'quota', 'list'])).stdout);
    expect(listed).toContainEqual({ path: root, limits: { count: 5, bytesHardLimit: 100 }, stats: { count: 2, bytes: 5 } });
    expect((await zkts([...s, 'quota', 'list'])).stdout).toContain(`Output quota for ${root} count=5,`);

    // A second set keeps the other limits; a limit below the usage is set, with zkCli's warning.
    const below = await zkts([...s, 'quota', 'set', root, '--count', '1']);
    expect(below).toMatchObject({ code: 0, stdout: '' });
    expect(below.stderr).toBe(`warning: the count limit 1 is below the 2 nodes ${root} has now\n`);

    expect(await zkts([...s, '--json', 'quota', 'rm', root, '-n', '-B'])).toMatchObject({ code: 0, stdout: `{"path":"${root}","unset":["count","hard-bytes"]}\n` });
    expect(JSON.parse((await zkts([...s, '--json', 'quota', 'get', root])).stdout)).toMatchObject({ limits: {} });
    expect(await zkts([...s, 'quota', 'rm', root])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const gone = await zkts([...s, 'quota', 'get', root]);
    expect(gone).toMatchObject({ code: 2, stderr: `zkts: quota: quota for ${root} does not exist\n` });
    expect((await zkts([...s, 'quota', 'rm', root])).code).toBe(2);
  });

  it("zkCli's names and flags: setquota, listquota, delquota", async () => {
    const root = uniqueRoot('quota');
    await client.create(root);
    quotas.push(root);
    expect((await zkts([...s, 'setquota', '-N', '3', root])).code).toBe(0);
    expect((await zkts([...s, 'setquota', '-b', '10', root])).code).toBe(0);
    expect((await zkts([...s, 'listquota', root])).stdout).toBe(
      `Output quota for ${root} count=-1,bytes=10=;byteHardLimit=-1;countHardLimit=3\nOutput stat for ${root} count=1,bytes=0\n`,
    );
    expect((await zkts([...s, 'delquota', '-N', root])).code).toBe(0);
    expect((await zkts([...s, 'listquota', root])).stdout).toContain(`Output quota for ${root} count=-1,bytes=10=;byteHardLimit=-1;countHardLimit=-1\n`);
    expect((await zkts([...s, 'delquota', root])).code).toBe(0);
    expect((await zkts([...s, 'listquota', root])).code).toBe(2);
    // Listed in the help as zkCli's names.
    expect((await zkts(['--help'])).stdout).toMatch(/^ {2}setquota +same as `quota set`$/m);
  });

  it('prints the listquota lines zkCli prints, for a quota set by either', async () => {
    const root = uniqueRoot('quota');
    await client.create(root, 'x');
    await client.create(`${root}/ours`, 'yy');
    await client.create(`${root}/theirs`, 'zzz');
    quotas.push(`${root}/ours`, `${root}/theirs`);

    expect((await zkts([...s, 'quota', 'set', `${root}/ours`, '-n', '4', '-b', '40', '-N', '8', '-B', '80'])).code).toBe(0);
    const theirsSet = await zkCli(server, ['setquota', '-n', '4', `${root}/theirs`]);
    expect(theirsSet.code).toBe(0);

    for (const path of [`${root}/ours`, `${root}/theirs`]) {
      const java = await zkCli(server, ['listquota', path]);
      const ours = await zkts([...s, 'quota', 'get', path]);
      expect(outputLines(java.out)).toMatch(/^Output quota for .*\nOutput stat for .*count=1,bytes=\d$/);
      expect(ours.stdout).toBe(`${outputLines(java.out)}\n`);
    }
  });

  it('refuses a quota nested in another one, and a bad argument, with a usage error', async () => {
    const root = uniqueRoot('quota');
    await client.create(root);
    await client.create(`${root}/a`);
    quotas.push(root);
    expect((await zkts([...s, 'quota', 'set', root, '-n', '10'])).code).toBe(0);
    const nested = await zkts([...s, 'quota', 'set', `${root}/a`, '-n', '1']);
    expect(nested).toMatchObject({ code: 1, stderr: `zkts: quota: ${root}/a has a parent ${root} which has a quota [QUOTA_CONFLICT]\n` });
    const missing = await zkts([...s, 'quota', 'set', `${root}/nope`, '-n', '1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/NO_NODE/);

    for (const [args, message] of [
      [['quota', 'set', root], 'give at least one of -n, -b, -N, -B'],
      [['quota', 'set', root, '-n', '0'], "-n (--count) must be an integer ≥ 1, got '0'"],
      [['quota', 'set', root, '-n', '2147483648'], 'count must be an integer in 1..2147483647'],
      [['quota', 'set', '/', '-n', '1'], 'path must not be the root'],
      [['quota', 'get', '/zookeeper/quota/x'], "path must not be under /zookeeper/quota, got '/zookeeper/quota/x'"],
      [['quota', 'frob'], "unknown action 'frob'"],
      [['--server', `${server}${root}`, 'quota', 'list'], `client has the chroot '${root}'`],
    ] as const) {
      const r = await zkts([...s, ...args]);
      expect(r.code, args.join(' ')).toBe(64);
      expect(r.stderr, args.join(' ')).toContain(message);
    }
  });
});

describe('zkts against a server enforcing quotas', { timeout: 300_000 }, () => {
  let enforcing: ZooKeeperServer;
  beforeAll(async () => {
    enforcing = await startZooKeeper({ tickTime: 500, systemProperties: { 'zookeeper.enforceQuota': true } });
  });
  afterAll(async () => {
    await enforcing?.[Symbol.asyncDispose]();
  });

  it('a create past a hard limit set with `zkts quota set` fails with QUOTA_EXCEEDED (exit 7)', async () => {
    const e = ['--server', enforcing.connectString];
    const root = uniqueRoot('quota');
    expect((await zkts([...e, 'create', root])).code).toBe(0);
    expect((await zkts([...e, 'quota', 'set', root, '-N', '2'])).code).toBe(0);
    expect((await zkts([...e, 'create', `${root}/a`])).code).toBe(0);
    const refused = await zkts([...e, 'create', `${root}/b`]);
    expect(refused).toMatchObject({ code: 7, stderr: `zkts: create: quota exceeded (${root}/b) [QUOTA_EXCEEDED]\n` });
  });
});
