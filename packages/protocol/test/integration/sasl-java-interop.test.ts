// SASL with Java on the other side. First the JDK's own DIGEST-MD5 SaslServer (fresh random nonces every run)
// must accept our response and we its rspauth; then ZooKeeper's Java client, authenticated from the same JAAS
// credentials a Java deployment would use (DigestLoginModule `Client` section), and zkts clients read each
// other's sasl-protected nodes exactly as their ACLs say.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderClientJaas, startZooKeeper, type ZooKeeperServer } from '@zkts/testkit';
import { Acls, createClient, type ZkClient } from '@zkts/protocol';
import { DigestMd5Exchange } from '../../src/client/sasl/digest-md5.js';
import { compileJavaPrograms, type JavaPrograms } from '../../../../test/support/java-peer.js';
import { text, uniqueRoot } from '../support/integration.js';

const USERS = { bob: 'bob-secret', carol: 'carol-secret' };
let java: JavaPrograms;

beforeAll(() => {
  java = compileJavaPrograms();
}, 120_000);
afterAll(() => java?.dispose());

describe("the JDK's DIGEST-MD5 server", () => {
  it('accepts our response to its challenge, and we accept its rspauth (non-Latin-1 password)', async () => {
    const proc = java.digestServer('bjørn', 'pässwörd€');
    let out = '';
    proc.stdout?.on('data', (b: Buffer) => (out += b.toString('utf8')));
    let err = '';
    proc.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const line = async (key: string): Promise<string> => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const m = new RegExp(`^${key}\\t(.*)$`, 'm').exec(out);
        if (m) return m[1] ?? '';
        if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`no ${key} from the JDK (stdout ${out}, stderr ${err})`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const ours = new DigestMd5Exchange({ username: 'bjørn', password: 'pässwörd€', protocol: 'zookeeper', serverName: 'zk-sasl-md5' }, () => 'zkts-cnonce-' + Date.now());
    const response = ours.evaluate(new TextEncoder().encode(await line('challenge')));
    proc.stdin?.write(Buffer.concat([Buffer.from(response ?? new Uint8Array(0)), Buffer.from('\n')]));
    const rspauth = await line('rspauth');
    expect(await line('authorized')).toBe('true\tbjørn');
    expect(ours.evaluate(new TextEncoder().encode(rspauth))).toBeNull();
    expect(ours.complete).toBe(true);
  });
});

describe('ZooKeeper Java client and zkts, same SASL users', () => {
  let server: ZooKeeperServer;
  const clients: ZkClient[] = [];
  const root = uniqueRoot('jsasl');

  async function zkts(user: keyof typeof USERS): Promise<ZkClient> {
    const c = createClient(server.connectString, { sessionTimeout: 6000, sasl: { mechanism: 'DIGEST-MD5', username: user, password: USERS[user] } });
    clients.push(c);
    return c.connect({ timeout: 20_000 });
  }

  function javaAs(user: keyof typeof USERS, ...steps: string[]): ReturnType<JavaPrograms['peer']> {
    return java.peer(renderClientJaas({ username: user, password: USERS[user] }), server.connectString, steps);
  }

  beforeAll(async () => {
    server = await startZooKeeper({ sasl: { digestUsers: USERS }, tickTime: 500 });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
  });
  afterAll(async () => {
    await server?.[Symbol.asyncDispose]();
  });

  it("each reads the other's nodes as the sasl ACLs say", async () => {
    const bob = await zkts('bob');
    await bob.create(root, null);
    // Java as bob: its identity, and two nodes, one for each user.
    const made = await javaAs('bob', 'whoami', `create:${root}/java-bob:bob:from java`, `create:${root}/java-carol:carol:for carol`);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toContain('STATE SaslAuthenticated');
    expect(made.out).toContain('WHOAMI sasl bob');
    // zkts sees the Java client's nodes as their ACLs say.
    expect(text((await bob.getData(`${root}/java-bob`)).data)).toBe('from java');
    await expect(bob.getData(`${root}/java-carol`)).rejects.toMatchObject({ code: 'NO_AUTH' });
    const carol = await zkts('carol');
    expect(text((await carol.getData(`${root}/java-carol`)).data)).toBe('for carol');
    await expect(carol.getData(`${root}/java-bob`)).rejects.toMatchObject({ code: 'NO_AUTH' });

    // And the other way round: zkts makes nodes, Java reads them as bob and as carol.
    await bob.create(`${root}/zkts-bob`, 'from zkts', { acl: [Acls.sasl('bob')] });
    await carol.create(`${root}/zkts-carol`, 'zkts for carol', { acl: [Acls.sasl('carol')] });
    const asBob = await javaAs('bob', `get:${root}/zkts-bob`, `get:${root}/zkts-carol`);
    expect(asBob.code, asBob.err).toBe(0);
    expect(asBob.out).toContain(`GET ${root}/zkts-bob from zkts`);
    expect(asBob.out).toContain(`GET ${root}/zkts-carol ERR NOAUTH`);
    const asCarol = await javaAs('carol', `get:${root}/zkts-carol`, `get:${root}/zkts-bob`);
    expect(asCarol.code, asCarol.err).toBe(0);
    expect(asCarol.out).toContain(`GET ${root}/zkts-carol zkts for carol`);
    expect(asCarol.out).toContain(`GET ${root}/zkts-bob ERR NOAUTH`);
  });

  it('a Java client with a wrong password is refused like ours (AuthFailed)', async () => {
    const wrong = await java.peer(renderClientJaas({ username: 'bob', password: 'nope' }), server.connectString, ['whoami']);
    expect(wrong.out).toContain('STATE AuthFailed');
    expect(wrong.code).toBe(2);
  });
});
