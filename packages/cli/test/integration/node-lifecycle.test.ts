// What `create -e` and `rm -r` tell a person about nodes that come and go: the ephemeral node that is gone
// as soon as the command's session ends, a recursive delete of a missing path, and one that fails part-way
// (which is not atomic, so the person has to know how much is gone). Against the shared real ZooKeeper.
import { connect, digestId } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/commands/index.js';
import { sharedServer, uniqueRoot, zkts } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

const server = sharedServer();
let client: ZkClient;

beforeAll(async () => {
  client = await connect(server);
});
afterAll(async () => {
  await client.close();
});

const run = (...argv: string[]): ReturnType<typeof runInProcess> => runInProcess(COMMANDS, ['--server', server, ...argv]);

describe('create -e and rm -r', { timeout: 120_000 }, () => {
  it('create -e says on stderr, in one line, that the node goes with the command', async () => {
    const root = uniqueRoot('eph');
    await client.create(root);
    const created = await zkts(['--server', server, 'create', '-e', `${root}/e`, 'x']);
    expect(created.code).toBe(0);
    expect(created.stdout).toBe(`${root}/e\n`);
    expect(created.stderr).toBe(`zkts: create: ${root}/e is ephemeral: it goes away when this command's session ends, now (zkts shell keeps a session open)\n`);
    const sequential = await run('create', '-e', '-s', `${root}/q-`);
    expect(sequential.stderr).toMatch(new RegExp(`^zkts: create: ${root}/q-\\d{10} is ephemeral: `));
    // A persistent node is created without a word on stderr.
    expect(await run('create', `${root}/p`)).toMatchObject({ code: 0, stderr: '' });
    await client.removeRecursive(root);
  });

  it('rm -r of a missing path is NO_NODE (exit 2), as rm is', async () => {
    const missing = uniqueRoot('missing');
    const [plain, recursive] = await Promise.all([run('rm', missing), run('rm', '-r', missing)]);
    expect(plain).toMatchObject({ code: 2, stderr: `zkts: rm: no node (${missing}) [NO_NODE]\n` });
    expect(recursive).toEqual(plain);
  });

  it('rm -r deletes the subtree; failing part-way it says how many it deleted and where it stopped', async () => {
    const root = uniqueRoot('rmr');
    for (const p of [root, `${root}/a`, `${root}/a/x`, `${root}/b`]) await client.create(p);
    // Only bob may read /c's children: the delete stops there, after a, a/x and b (name order).
    await client.create(`${root}/c`, null, { acl: [{ perms: 31, id: { scheme: 'digest', id: digestId('bob', 'pw') } }] });
    await client.create(`${root}/d`);
    const failed = await run('rm', '-r', root);
    expect(failed.code).toBe(5);
    expect(failed.stderr).toBe(
      `zkts: rm: deleted 3 node(s) under ${root}, then failed at ${root}/c: not permitted: the session's identities lack the permission (${root}/c) [NO_AUTH]\n`,
    );
    expect((await client.getChildren(root)).children.sort()).toEqual(['c', 'd']);
    const json = await run('--json', 'rm', '-r', root);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'NO_AUTH', exitCode: 5, command: 'rm', removed: 0, failedPath: `${root}/c` } });

    // With the right identity it completes, and --json counts the nodes.
    const done = await run('--auth', 'digest:bob:pw', '--json', 'rm', '-r', root);
    expect(done).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(done.stdout)).toEqual({ path: root, deleted: true, removed: 3 });
    expect(await client.exists(root)).toBeNull();
  });
});
