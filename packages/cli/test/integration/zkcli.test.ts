// zkCli's habits against a real server: its options before the command, its command names, its flags with
// their meaning there (-s, -w, -b, -x, -t, the ACL argument), and the commands zkts lacked (sync, ephemerals,
// count, unwatch, config, version). Most run in-process (the same dispatch as the executable, much cheaper
// on two cores); the zkCli command line itself runs the real executable.
import { connect, Perms } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { freePort } from '@zkts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/commands/index.js';
import { fourLetter } from '../../src/commands/four-letter.js';
import { parseHostPort } from '../../src/hosts.js';
import { collect, sharedServer, spawnZkts, uniqueRoot, waitForOutput, zkts } from '../support/cli.js';
import { runInProcess, startInProcess } from '../support/run-in-process.js';

const server = sharedServer();
const s = ['--server', server];
let client: ZkClient;

beforeAll(async () => {
  client = await connect(server);
});
afterAll(async () => {
  await client.close();
});

const run = (argv: string[]): ReturnType<typeof runInProcess> => runInProcess(COMMANDS, [...s, ...argv]);
const STAT = /^czxid = 0x[0-9a-f]+\nctime = .*\nmzxid = .*\nmtime = .*\npzxid = .*\ncversion = \d+\ndataVersion = \d+\naclVersion = -?\d+\nephemeralOwner = 0x[0-9a-f]+\ndataLength = \d+\nnumChildren = \d+$/m;

describe("zkCli's command line", { timeout: 300_000 }, () => {
  it('takes -server and -timeout (the session timeout) before the command', async () => {
    const root = uniqueRoot('zkcli');
    expect(await zkts(['-server', server, 'create', root, 'hello'])).toMatchObject({ code: 0, stdout: `${root}\n`, stderr: '' });
    const shell = spawnZkts(['-server', server, '-timeout', '6000', 'shell'], { keepStdin: true, env: { ZKTS_HISTORY: '' } });
    const output = collect(shell);
    shell.stdin?.write(`create -e ${root}/eph\n--json stat ${root}/eph\n`);
    const [line = ''] = await waitForOutput(output.stdout, /^\{.*\}$/m);
    const owner = BigInt((JSON.parse(line) as { stat: { ephemeralOwner: string } }).stat.ephemeralOwner);
    // The server's view of the session: its negotiated timeout is what -timeout asked for.
    const cons = await fourLetter(parseHostPort(server, 2181, 'server'), 'cons', 5000);
    expect(cons).toMatch(new RegExp(`sid=0x${owner.toString(16)},.*to=6000`));
    shell.stdin?.end('exit\n');
    expect(await output.done).toMatchObject({ code: 0, stderr: '' });
  });

  it('opens the shell for -server without a command, as zkCli does', async () => {
    const root = uniqueRoot('zkcli');
    await client.create(root, 'in the shell');
    const result = await zkts(['-server', server], { input: `get ${root}\n`, env: { ZKTS_HISTORY: '' } });
    expect(result).toMatchObject({ code: 0, stdout: 'in the shell\n', stderr: '' });
  });
});

describe("zkCli's command names", { timeout: 300_000 }, () => {
  it('delete, deleteall and rmr run rm and rm -r', async () => {
    const root = uniqueRoot('zkcli');
    for (const p of [root, `${root}/d`, `${root}/t`, `${root}/t/a`, `${root}/t/a/b`, `${root}/r`, `${root}/r/x`]) await client.create(p);
    expect(await run(['delete', '-v', '1', `${root}/d`])).toMatchObject({ code: 4 });
    expect(await run(['delete', '-v', '0', `${root}/d`])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await client.exists(`${root}/d`)).toBeNull();
    expect(await run(['delete', `${root}/t`])).toMatchObject({ code: 6 });
    expect(await run(['deleteall', `${root}/t`, '-b', '100'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await run(['rmr', `${root}/r`])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await client.getChildren(root)).children).toEqual([]);
  });

  it('getAcl and setAcl run acl get and acl set, with -s, -v and -R', async () => {
    const root = uniqueRoot('zkcli');
    for (const p of [root, `${root}/a`, `${root}/a/b`]) await client.create(p);
    const get = await run(['getAcl', '-s', root]);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(/^world:anyone:cdrwa\nczxid = /);
    expect(get.stdout).toMatch(STAT);
    const stale = await run(['setAcl', '-v', '3', root, 'world:anyone:cdrwa']);
    expect(stale.code).toBe(4);
    const set = await run(['setAcl', '-s', '-v', '0', root, 'world:anyone:cdrw']);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/^czxid = (.*\n)*aclVersion = 1\n/);
    expect((await client.getACL(root)).acl).toEqual([{ perms: Perms.ALL & ~Perms.ADMIN, id: { scheme: 'world', id: 'anyone' } }]);
    expect(await run(['setAcl', '-R', `${root}/a`, 'world:anyone:rw'])).toEqual({ code: 0, stdout: '', stderr: '' });
    for (const p of [`${root}/a`, `${root}/a/b`]) expect((await client.getACL(p)).acl[0]?.perms).toBe(Perms.READ | Perms.WRITE);
    expect((await run(['setAcl', '-R', '-v', '0', root, 'world:anyone:r'])).stderr).toMatch(/-v cannot be combined with -R/);
  });

  it('getAllChildrenNumber runs count; the one-shot getEphemerals and removewatches say what a new session has', async () => {
    const root = uniqueRoot('zkcli');
    for (const p of [root, `${root}/a`, `${root}/a/b`, `${root}/c`]) await client.create(p);
    expect(await run(['getAllChildrenNumber', root])).toEqual({ code: 0, stdout: '3\n', stderr: '' });
    expect(await run(['count', `${root}/a`])).toEqual({ code: 0, stdout: '1\n', stderr: '' });
    expect(JSON.parse((await run(['--json', 'count', root])).stdout)).toEqual({ path: root, count: 3 });
    expect(await run(['getEphemerals', root])).toEqual({ code: 0, stdout: '', stderr: '' });
    const unwatch = await run(['removewatches', root, '-d']);
    expect(unwatch.code).toBe(7);
    expect(unwatch.stderr).toMatch(/^zkts: removewatches: .*\[NO_WATCHER\]\n$/);
  });
});

describe("zkCli's flags", { timeout: 300_000 }, () => {
  it('ls -s, get -b/-x, set -s/-b, create -t and the ACL argument', async () => {
    const root = uniqueRoot('zkcli');
    for (const p of [root, `${root}/a`, `${root}/b`]) await client.create(p);
    const ls = await run(['ls', '-s', root]);
    expect(ls.stdout).toMatch(/^a\nb\nczxid = /);
    expect(ls.stdout).toMatch(/numChildren = 2\n$/);
    expect(JSON.parse((await run(['--json', 'ls', '-s', root])).stdout)).toMatchObject({ path: root, children: ['a', 'b'], stat: { numChildren: 2 } });
    const set = await run(['set', '-s', `${root}/a`, 'aGVsbG8sIHprdHM=', '-b']);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toMatch(/^czxid = (.*\n)*dataVersion = 1\n(.*\n)*dataLength = 11\n/);
    expect((await client.getData(`${root}/a`)).data.toString()).toBe('hello, zkts');
    expect(await run(['get', '-b', `${root}/a`])).toEqual({ code: 0, stdout: 'aGVsbG8sIHprdHM=\n', stderr: '' });
    expect((await run(['get', '-x', `${root}/a`])).stdout).toBe('00000000  68 65 6c 6c 6f 2c 20 7a  6b 74 73                 |hello, zkts|\n');
    expect((await run(['set', `${root}/a`, '%%%', '-b'])).stderr).toMatch(/-b: DATA is not base64/);
    expect(await run(['create', '-t', '60000', `${root}/ttl`])).toMatchObject({ code: 0, stdout: `${root}/ttl\n` });
    // -t is --ttl: the same refusal next to -e.
    expect((await run(['create', '-e', '-t', '5', `${root}/x`])).stderr).toMatch(/--ttl cannot be combined with -e/);
    expect(await run(['create', `${root}/ro`, 'data', 'world:anyone:r'])).toMatchObject({ code: 0, stdout: `${root}/ro\n` });
    expect((await client.getACL(`${root}/ro`)).acl).toEqual([{ perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } }]);
    expect((await run(['create', `${root}/twice`, 'd', 'world:anyone:r', '--acl', 'world:anyone:r'])).stderr).toMatch(/the ACL is given twice/);
  });

  it('-w waits for the watch of ls, get and stat to fire and prints its event', async () => {
    const root = uniqueRoot('zkcli');
    await client.create(root, 'v0');
    const ls = startInProcess(COMMANDS, [...s, 'ls', '-w', root]);
    const get = startInProcess(COMMANDS, [...s, 'get', '-w', root]);
    const stat = startInProcess(COMMANDS, [...s, '--json', 'stat', '-w', root]);
    await ls.waitFor(/waiting for the child watch on .* to fire; interrupt to stop/);
    await get.waitFor(/waiting for the data watch on .* to fire/);
    await stat.waitFor(/waiting for the watch on .* to fire/);
    await client.setData(root, 'v1');
    expect(await get.done).toBe(0);
    expect(get.stdout()).toBe(`v0\ndataChanged ${root}\n`);
    expect(await stat.done).toBe(0);
    expect(stat.stdout().split('\n')[1]).toBe(JSON.stringify({ type: 'dataChanged', path: root }));
    await client.create(`${root}/child`);
    expect(await ls.done).toBe(0);
    expect(ls.stdout()).toBe(`childrenChanged ${root}\n`);
  });

  it('-w ends quietly with exit 0 when interrupted, and stat -w on a missing node is exit 2 at once', async () => {
    const root = uniqueRoot('zkcli');
    await client.create(root);
    const get = startInProcess(COMMANDS, [...s, 'get', '-w', root]);
    await get.waitFor(/waiting for the data watch/);
    get.abort();
    expect(await get.done).toBe(0);
    expect(get.stdout()).toBe('\n');
    expect(await run(['stat', '-w', `${root}/missing`])).toMatchObject({ code: 2, stdout: '' });
  });
});

describe('the commands zkts lacked', { timeout: 300_000 }, () => {
  it('sync is quiet, config prints the configuration node, version names zkts and the server', async () => {
    const root = uniqueRoot('zkcli');
    await client.create(root);
    expect(await run(['sync', root])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(JSON.parse((await run(['--json', 'sync', root])).stdout)).toEqual({ path: root, synced: true });
    const config = await run(['config', '-s']);
    expect(config.code).toBe(0);
    expect(config.stdout).toMatch(STAT);
    expect(JSON.parse((await run(['--json', 'config', '-c'])).stdout)).toMatchObject({ config: expect.any(String), clientConnectString: expect.any(String), stat: { czxid: expect.any(String) } });
    const version = await run(['version']);
    expect(version).toMatchObject({ code: 0, stderr: '' });
    expect(version.stdout).toMatch(new RegExp(`^zkts \\d+\\.\\d+\\.\\d+\\nserver ${server.replace(/\./g, '\\.')}: ZooKeeper 3\\.\\d+\\.\\d+`));
    expect(JSON.parse((await run(['--json', 'version'])).stdout)).toMatchObject({ name: 'zkts', server: { address: server, version: expect.stringMatching(/^3\.\d+\.\d+/) } });
    const down = await runInProcess(COMMANDS, ['--server', `127.0.0.1:${await freePort()}`, 'version']);
    expect(down.code).toBe(69);
    expect(down.stdout).toMatch(/^zkts \d+\.\d+\.\d+\n$/);
    expect(down.stderr).toMatch(/^zkts: version: no server answered: /);
  });
});
