import { connect, digestId } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { freePort, startFaultProxy } from '@zkts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { collect, jsonLines, sharedServer, spawnZkts, uniqueRoot, waitForOutput, zkts } from '../support/cli.js';

const server = sharedServer();
let client: ZkClient;

beforeAll(async () => {
  client = await connect(server);
});
afterAll(async () => {
  await client.close();
});

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

// Every test spawns the CLI (node + tsx) several times; on two shared cores that can take minutes.
describe('node commands against a real server', { timeout: 300_000 }, () => {
  it('create, get, set, stat and rm, with their exit codes', async () => {
    const root = uniqueRoot();
    const s = ['--server', server];
    expect(await zkts([...s, 'create', root, 'hello'])).toMatchObject({ code: 0, stdout: `${root}\n`, stderr: '' });
    const again = await zkts([...s, 'create', root, 'x']);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(new RegExp(`^zkts: create: node exists \\(${root}\\) \\[NODE_EXISTS\\]\\n$`));
    expect(await zkts([...s, 'get', root])).toMatchObject({ code: 0, stdout: 'hello' });
    expect(await zkts([...s, 'set', root, 'world', '-v', '0'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const stale = await zkts([...s, 'set', root, 'again', '-v', '0']);
    expect(stale.code).toBe(4);
    expect(stale.stderr).toMatch(/BAD_VERSION/);
    const json = await zkts([...s, '--json', 'get', root]);
    expect(JSON.parse(json.stdout)).toMatchObject({ path: root, data: 'world', encoding: 'utf8', stat: { version: 1, dataLength: 5 } });
    const stat = await zkts([...s, 'stat', root]);
    expect(stat.stdout).toMatch(/^czxid = 0x[0-9a-f]+\nctime = \d{4}-\d\d-\d\dT.*\n(.*\n)*dataVersion = 1\n(.*\n)*numChildren = 0\n$/);
    const missing = await zkts([...s, 'stat', `${root}/missing`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/NO_NODE/);
    expect((await zkts([...s, 'get', `${root}/missing`])).code).toBe(2);
    expect((await zkts([...s, 'create', '-p', `${root}/a/b/c`, 'deep'])).code).toBe(0);
    expect(text((await client.getData(`${root}/a/b/c`)).data)).toBe('deep');
    const notEmpty = await zkts([...s, 'rm', `${root}/a`]);
    expect(notEmpty.code).toBe(6);
    expect(notEmpty.stderr).toMatch(/NOT_EMPTY/);
    expect((await zkts([...s, 'rm', '-v', '7', `${root}/a/b/c`])).code).toBe(4);
    expect(await zkts([...s, 'rm', '-r', `${root}/a`])).toMatchObject({ code: 0, stdout: '' });
    expect(await client.exists(`${root}/a`)).toBeNull();
  });

  it('creates sequential, ephemeral, container and TTL nodes, and data from stdin byte for byte', async () => {
    const root = uniqueRoot();
    await client.create(root);
    const s = ['--server', server];
    const [seq, eph, container, ttl, binary] = await Promise.all([
      zkts([...s, 'create', '-s', `${root}/seq-`, 'x']),
      zkts([...s, 'create', '-e', `${root}/eph`]),
      zkts([...s, 'create', '-c', `${root}/container`]),
      zkts([...s, '--json', 'create', '--ttl', '60000', `${root}/ttl`]),
      zkts([...s, 'create', `${root}/bin`, '-'], { input: new Uint8Array([0, 255, 10, 128, 1]) }),
    ]);
    expect(seq.stdout).toMatch(new RegExp(`^${root}/seq-\\d{10}\\n$`));
    expect(eph).toMatchObject({ code: 0, stdout: `${root}/eph\n` });
    // The ephemeral node lived as long as that command's session.
    expect(await client.exists(`${root}/eph`)).toBeNull();
    // The server shows containers and TTL nodes to clients with ephemeralOwner 0, like persistent ones
    // (the create mode itself is covered by the unit test of createMode).
    expect(container).toMatchObject({ code: 0, stdout: `${root}/container\n` });
    expect(await client.exists(`${root}/container`)).not.toBeNull();
    expect(JSON.parse(ttl.stdout)).toMatchObject({ path: `${root}/ttl`, stat: { ephemeralOwner: '0' } });
    expect(binary.code).toBe(0);
    expect([...(await client.getData(`${root}/bin`)).data]).toEqual([0, 255, 10, 128, 1]);
    const raw = collect(spawnZkts([...s, 'get', `${root}/bin`]));
    await raw.done;
    expect(Buffer.from(raw.stdout(), 'latin1').length).toBeGreaterThan(0);
    const base64 = JSON.parse((await zkts([...s, '--json', 'get', `${root}/bin`])).stdout) as { data: string; encoding: string };
    expect(base64).toMatchObject({ encoding: 'base64', data: Buffer.from([0, 255, 10, 128, 1]).toString('base64') });
    const conflicting = await zkts([...s, 'create', '-e', '--ttl', '5', `${root}/x`]);
    expect(conflicting.code).toBe(64);
    expect(conflicting.stderr).toMatch(/--ttl cannot be combined with -e/);
  });

  it('lists with ls, ls -R and tree, readable and JSON', async () => {
    const root = uniqueRoot();
    for (const p of [root, `${root}/b`, `${root}/a`, `${root}/a/x`, `${root}/a/y`, `${root}/c`]) await client.create(p);
    const s = ['--server', server];
    const [ls, lsJson, lsR, tree, treeJson] = await Promise.all([
      zkts([...s, 'ls', root]),
      zkts([...s, '--json', 'ls', root]),
      zkts([...s, 'ls', '-R', root]),
      zkts([...s, 'tree', root]),
      zkts([...s, 'tree', '--json', root]),
    ]);
    expect(ls.stdout).toBe('a\nb\nc\n');
    expect(JSON.parse(lsJson.stdout)).toEqual({ path: root, children: ['a', 'b', 'c'] });
    expect(lsR.stdout).toBe([root, `${root}/a`, `${root}/a/x`, `${root}/a/y`, `${root}/b`, `${root}/c`, ''].join('\n'));
    expect(tree.stdout).toBe(`${root}\n├── a\n│   ├── x\n│   └── y\n├── b\n└── c\n`);
    expect(JSON.parse(treeJson.stdout)).toMatchObject({ path: root, children: [{ name: 'a', children: [{ name: 'x' }, { name: 'y' }] }, { name: 'b' }, { name: 'c' }] });
  });

  it('works under a chroot given in --server or ZKTS_SERVER', async () => {
    const root = uniqueRoot();
    await client.create(root);
    await client.create(`${root}/inside`, 'in');
    const chrooted = `${server}${root}`;
    expect((await zkts(['--server', chrooted, 'ls', '/'])).stdout).toBe('inside\n');
    expect(await zkts(['create', '/made', 'here'], { env: { ZKTS_SERVER: chrooted } })).toMatchObject({ code: 0, stdout: '/made\n' });
    expect(text((await client.getData(`${root}/made`)).data)).toBe('here');
    expect((await zkts(['--server', chrooted, '--json', 'ls', '-R', '/'])).stdout).toBe('{"path":"/"}\n{"path":"/inside"}\n{"path":"/made"}\n');
    expect((await zkts(['--server', chrooted, 'get', '/inside'])).stdout).toBe('in');
  });

  it('reads and sets ACLs, and authenticates with --auth, auth and whoami', async () => {
    const root = uniqueRoot();
    await client.create(root);
    await client.create(`${root}/secret`, 'shh');
    const s = ['--server', server];
    const id = digestId('alice', 'pw');
    expect(await zkts([...s, 'acl', 'set', `${root}/secret`, `digest:${id}:cdrwa,world:anyone:c`])).toMatchObject({ code: 0, stdout: '' });
    const [acl, denied, allowed, whoami, auth, wrongVersion] = await Promise.all([
      // Reading an ACL needs READ or ADMIN (ZooKeeper 3.6+), so this one authenticates too.
      zkts([...s, '--auth', 'digest:alice:pw', 'acl', 'get', `${root}/secret`]),
      zkts([...s, 'get', `${root}/secret`]),
      zkts([...s, '--auth', 'digest:alice:pw', 'get', `${root}/secret`]),
      zkts([...s, '--auth', 'digest:alice:pw', '--json', 'whoami']),
      zkts([...s, 'auth', 'digest:alice:pw']),
      zkts([...s, '--auth', 'digest:alice:pw', 'acl', 'set', '-v', '0', `${root}/secret`, 'world:anyone:r']),
    ]);
    expect(acl.stdout).toBe(`digest:${id}:cdrwa\nworld:anyone:c\n`);
    expect(denied.code).toBe(5);
    expect(denied.stderr).toMatch(/NO_AUTH/);
    expect(allowed).toMatchObject({ code: 0, stdout: 'shh' });
    expect(JSON.parse(whoami.stdout)).toEqual({ identities: expect.arrayContaining([{ scheme: 'digest', user: 'alice' }]) });
    expect(auth.stdout).toMatch(/^digest alice$/m);
    expect(wrongVersion.code).toBe(4);
    const badSpec = await zkts([...s, 'acl', 'set', `${root}/secret`, 'world:anyone:rz']);
    expect(badSpec).toMatchObject({ code: 64 });
    expect(badSpec.stderr).toMatch(/unknown permission 'z'/);
    const acls = JSON.parse((await zkts([...s, '--auth', 'digest:alice:pw', '--json', 'acl', 'get', `${root}/secret`])).stdout) as { acl: unknown[] };
    expect(acls.acl).toEqual([{ scheme: 'digest', id, perms: 'cdrwa' }, { scheme: 'world', id: 'anyone', perms: 'c' }]);
  });

  it('watch prints events until interrupted', async () => {
    const root = uniqueRoot();
    await client.create(root);
    const child = spawnZkts(['--server', server, '--json', 'watch', '--recursive', root]);
    const output = collect(child);
    await waitForOutput(output.stderr, /watching/);
    await client.create(`${root}/new`);
    await client.setData(`${root}/new`, 'x');
    await client.delete(`${root}/new`);
    await waitForOutput(output.stdout, /"deleted"/);
    child.kill('SIGINT');
    const result = await output.done;
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout).map((e) => [e['type'], e['path']])).toEqual([
      ['created', `${root}/new`],
      ['dataChanged', `${root}/new`],
      ['deleted', `${root}/new`],
    ]);
    const plain = spawnZkts(['--server', server, 'watch', root]);
    const plainOut = collect(plain);
    await waitForOutput(plainOut.stderr, /watching/);
    await client.setData(root, 'changed');
    await waitForOutput(plainOut.stdout, /dataChanged/);
    plain.kill('SIGTERM');
    expect(await plainOut.done).toMatchObject({ code: 0, stdout: `dataChanged ${root}\n` });
  });

  it('watch exits 69 when its session is lost', async () => {
    const root = uniqueRoot();
    await client.create(root);
    const [host = '', port = ''] = server.split(':');
    const proxy = await startFaultProxy({ host, port: Number(port) });
    try {
      const child = spawnZkts(['--server', proxy.connectString, '--session-timeout', '2000', 'watch', root]);
      const output = collect(child);
      await waitForOutput(output.stderr, /watching/);
      proxy.blackhole();
      const result = await output.done;
      expect(result.code).toBe(69);
      expect(result.stderr).toMatch(/\nzkts: watch: .*\[SESSION_EXPIRED\]\n$/);
    } finally {
      proxy.restore();
      await proxy.close();
    }
  });

  it('answers four-letter words', async () => {
    const s = ['--server', server];
    const [ruok, srvr, mntr] = await Promise.all([zkts([...s, 'ruok']), zkts([...s, 'srvr']), zkts([...s, '--json', 'mntr'])]);
    expect(ruok).toMatchObject({ code: 0, stdout: 'imok\n' });
    expect(srvr.stdout).toMatch(/^Zookeeper version: /);
    expect(JSON.parse(mntr.stdout)).toMatchObject({ zk_server_state: 'standalone', zk_version: expect.any(String) });
  });

  it('fails with exit 69 when no server answers, and 64 on usage errors', async () => {
    const port = await freePort();
    const down = await zkts(['--server', `127.0.0.1:${port}`, '--timeout', '1500', 'ls', '/']);
    expect(down.code).toBe(69);
    // Refused: said at once, and final without waiting out --timeout (test/integration/connect.test.ts).
    expect(down.stderr).toMatch(new RegExp(`^zkts: 127\\.0\\.0\\.1:${port}: connection refused \\[ECONNREFUSED\\]\nzkts: ls: cannot connect to 127\\.0\\.0\\.1:${port}: `));
    expect((await zkts(['--server', `127.0.0.1:${port}`, 'ruok'])).code).toBe(69);
    const unknown = await zkts(['frobnicate']);
    expect(unknown).toMatchObject({ code: 64, stderr: "zkts: unknown command 'frobnicate' (see zkts --help)\n" });
    const badOption = await zkts(['ls', '--bogus']);
    expect(badOption.code).toBe(64);
    expect(badOption.stderr).toBe('zkts: ls: unknown option --bogus\nusage: zkts ls [-R] [-s] [-w] [PATH]\n');
    expect((await zkts([])).code).toBe(64);
    expect((await zkts(['--server', server, 'get'])).stderr).toMatch(/missing PATH/);
    expect(((await zkts(['--server', server, 'ls', 'relative'])).code)).toBe(64);
  });
});
