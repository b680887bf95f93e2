// Digest ACLs from the command line, as a new user gets them wrong: a password where the hash belongs (which
// the server accepts, locking everyone out), `auth::cdrwa` on a session without credentials, and NO_AUTH for a
// session that did authenticate. Against the shared real ZooKeeper.
import { connect, digestId } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/commands/index.js';
import { sharedServer, uniqueRoot, zkts } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

const server = sharedServer();
const root = uniqueRoot('acl');
let client: ZkClient;

beforeAll(async () => {
  client = await connect(server);
  await client.create(root);
});
afterAll(async () => {
  await client.close();
});

const run = (...argv: string[]): ReturnType<typeof runInProcess> => runInProcess(COMMANDS, ['--server', server, ...argv]);

describe('digest ACLs from the CLI', { timeout: 120_000 }, () => {
  it('acl digest prints the id ZooKeeper compares with (DigestAuthenticationProvider.generateDigest)', async () => {
    // ZooKeeper's own AuthTest pairs super:test with this superDigest.
    expect(await run('acl', 'digest', 'super:test')).toEqual({ code: 0, stdout: 'super:D/InIHSb7yEEbrWz8b9l71RjZJU=\n', stderr: '' });
    // The password is everything after the first colon; from stdin it stays out of the shell history.
    expect((await run('acl', 'digest', 'bob:pa:ss')).stdout).toBe(`${digestId('bob', 'pa:ss')}\n`);
    expect((await runInProcess(COMMANDS, ['acl', 'digest', '-'], 'bob:secret\n')).stdout).toBe(`${digestId('bob', 'secret')}\n`);
    expect(JSON.parse((await run('--json', 'acl', 'digest', 'bob:secret')).stdout)).toEqual({ scheme: 'digest', id: digestId('bob', 'secret') });
    expect(await run('acl', 'digest', 'nocolon')).toMatchObject({ code: 64, stderr: expect.stringMatching(/^zkts: acl: expected USER:PASSWORD/) });
  });

  it('acl set and create --acl refuse a password where the hash belongs, without echoing it', async () => {
    const path = `${root}/guarded`;
    await client.create(path, 'x');
    const refused = await run('acl', 'set', path, 'digest:bob:hunter2:cdrwa');
    expect(refused.code).toBe(64);
    expect(refused.stderr).toMatch(/^zkts: acl: bad ACL 'digest:bob:…:cdrwa': a digest id is USER:HASH, the base64 SHA-1 of USER:PASSWORD \(28 characters\), not the password itself; `zkts acl digest bob:PASSWORD` prints it\n/);
    expect(refused.stderr).not.toContain('hunter2');
    // Nothing was sent: the node is as open as before.
    expect((await client.getACL(path)).acl).toEqual([{ perms: 31, id: { scheme: 'world', id: 'anyone' } }]);
    const created = await run('create', '--acl', 'digest:bob:hunter2:cdrwa', `${path}/child`);
    expect(created.code).toBe(64);
    expect(created.stderr).toMatch(/bad ACL 'digest:bob:…:cdrwa': a digest id is USER:HASH/);
    expect(await client.exists(`${path}/child`)).toBeNull();

    // The id acl digest prints is accepted, and then bob (only bob) gets in.
    const id = (await run('acl', 'digest', 'bob:hunter2')).stdout.trim();
    expect(await run('acl', 'set', path, `digest:${id}:cdrwa`)).toMatchObject({ code: 0, stderr: '' });
    expect(await run('--auth', 'digest:bob:hunter2', 'get', path)).toMatchObject({ code: 0, stdout: 'x' });
    // A SHA-256 digest (a server with digestAlg=SHA-256) is a digest too.
    const sha256 = 'bob:wjySwxg860UATFtciuZ1lpzrCHrPeov6SPu/ZD56uig=';
    expect(await run('--auth', 'digest:bob:hunter2', 'acl', 'set', path, `digest:${sha256}:r,digest:${id}:cdrwa`)).toMatchObject({ code: 0 });
  });

  it('NO_AUTH to an authenticated session says "not permitted"', async () => {
    const path = `${root}/bobs`;
    await client.create(path, 'x', { acl: [{ perms: 31, id: { scheme: 'digest', id: digestId('bob', 'pw') } }] });
    const denied = await run('--auth', 'digest:alice:pw', 'get', path);
    expect(denied).toMatchObject({ code: 5, stdout: '' });
    expect(denied.stderr).toBe(`zkts: get: not permitted: the session's identities lack the permission (${path}) [NO_AUTH]\n`);
  });

  it('auth::cdrwa without credentials says that the auth scheme needs them', async () => {
    const path = `${root}/mine`;
    await client.create(path);
    const [setAcl, created, json] = await Promise.all([
      run('acl', 'set', path, 'auth::cdrwa'),
      run('create', '--acl', 'auth::cdrwa', `${path}/child`),
      run('--json', 'acl', 'set', path, 'world:anyone:r,auth::cdrwa'),
    ]);
    for (const [result, command] of [[setAcl, 'acl'], [created, 'create']] as const) {
      expect(result.code).toBe(7);
      expect(result.stderr).toBe(
        `zkts: ${command}: invalid ACL (${command === 'acl' ? path : `${path}/child`}): the auth scheme grants the session's own authenticated ` +
          'identities, and this session has none; authenticate first: zkts --auth digest:USER:PASSWORD … [INVALID_ACL]\n',
      );
    }
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'INVALID_ACL', exitCode: 7, message: expect.stringContaining('authenticate first') } });
    // With credentials the same spec works, and stands for them.
    expect(await run('--auth', 'digest:carol:pw', 'acl', 'set', path, 'auth::cdrwa')).toMatchObject({ code: 0, stderr: '' });
    expect((await client.getACL(path).catch(() => null))).toBeNull();
    expect((await run('--auth', 'digest:carol:pw', 'acl', 'get', path)).stdout).toBe(`digest:${digestId('carol', 'pw')}:cdrwa\n`);
  });

  it('names a missing or unknown action in words', async () => {
    expect(await zkts(['acl', 'frob'])).toMatchObject({ code: 64, stderr: expect.stringMatching(/^zkts: acl: unknown action 'frob' \(get, set or digest\)\n/) });
    expect(await run('acl', '/some/path')).toMatchObject({ code: 64, stderr: expect.stringMatching(/^zkts: acl: missing action before \/some\/path: zkts acl get \/some\/path\n/) });
  });
});
