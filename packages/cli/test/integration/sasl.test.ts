// `zkts --sasl` against real servers: DIGEST-MD5 users of a SASL server, and Kerberos with a ticket cache from
// a KDC the testkit starts. Identity (whoami), a sasl ACL, and the exit code 5 of a refused authentication.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKdc, startZooKeeper, type Kdc, type ZooKeeperServer } from '@zkts/testkit';

import { uniqueRoot, zkts } from '../support/cli.js';

describe('zkts --sasl', { timeout: 300_000 }, () => {
  let digestServer: ZooKeeperServer;
  let kdc: Kdc;
  let kerberized: ZooKeeperServer;
  let cache: string;

  beforeAll(async () => {
    kdc = await startKdc();
    const zkKeytab = await kdc.addPrincipal('zookeeper/localhost');
    const aliceKeytab = await kdc.addPrincipal('alice');
    cache = await kdc.kinit('alice', aliceKeytab);
    [digestServer, kerberized] = await Promise.all([
      startZooKeeper({ sasl: { digestUsers: { bob: 'bob-pw', carol: 'carol-pw' } }, tickTime: 500 }),
      startZooKeeper({ sasl: { kerberos: { principal: kdc.principal('zookeeper/localhost'), keytab: zkKeytab, krb5Conf: kdc.krb5Conf } }, tickTime: 500 }),
    ]);
  }, 180_000);
  afterAll(async () => {
    await digestServer?.[Symbol.asyncDispose]();
    await kerberized?.[Symbol.asyncDispose]();
    await kdc?.stop();
  });

  it('digest:USER:PASSWORD: whoami shows the sasl user; a sasl ACL keeps another user out; a wrong password exits 5', async () => {
    const s = ['--server', digestServer.connectString];
    const who = await zkts([...s, '--sasl', 'digest:bob:bob-pw', 'whoami']);
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toMatch(/^sasl bob$/m);
    const path = uniqueRoot('sasl');
    expect(await zkts([...s, '--sasl', 'digest:bob:bob-pw', 'create', path, 'bobs', '--acl', 'sasl:bob:cdrwa'])).toMatchObject({ code: 0 });
    expect(await zkts([...s, '--sasl', 'digest:bob:bob-pw', 'get', path])).toMatchObject({ code: 0, stdout: 'bobs' });
    const carol = await zkts([...s, '--sasl', 'digest:carol:carol-pw', 'get', path]);
    expect(carol.code).toBe(5);
    expect(carol.stderr).toMatch(/NO_AUTH/);
    const wrong = await zkts([...s, '--sasl', 'digest:bob:nope', 'get', path]);
    expect(wrong.code).toBe(5);
    expect(wrong.stderr).toMatch(/authentication failed .*SASL DIGEST-MD5: the server rejected/);
  });

  it('kerberos[:PRINCIPAL]: tickets from KRB5CCNAME; no ticket exits 5 saying to run kinit', async () => {
    const env = { KRB5_CONFIG: kdc.krb5Conf, KRB5CCNAME: `FILE:${cache}` };
    const s = ['--server', kerberized.connectString];
    const who = await zkts([...s, '--sasl', 'kerberos', 'whoami'], { env });
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toMatch(new RegExp(`^sasl ${kdc.principal('alice')}$`, 'm'));
    const named = await zkts([...s, '--sasl', `kerberos:${kdc.principal('alice')}`, 'whoami'], { env });
    expect(named.code, named.stderr).toBe(0);
    const none = await zkts([...s, '--sasl', 'kerberos', 'whoami'], { env: { ...env, KRB5CCNAME: `FILE:${kdc.dir}/no-cache` } });
    expect(none.code).toBe(5);
    expect(none.stderr).toMatch(/run kinit/);
  });
});
