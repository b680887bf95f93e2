// What authentication shows on zkts:auth and in the log, against real servers: each credential's scheme and
// outcome (digest from the auth option and from addAuth, replayed after a reconnect, a refused scheme; SASL
// DIGEST-MD5 accepted and refused), and never a credential: every message of every channel and every log
// line of the whole run, dumped to text (strings, bytes, errors with their causes and stacks), holds none of
// the passwords nor the digest hashes made from them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, startZooKeeper, type FaultProxy, type ZooKeeperServer } from '@zkts/testkit';
import { Acls, AuthFailedError, ChannelNames, createClient, digestId, type ClientOptions, type ZkClient } from '@zkts/protocol';
import { hostPort, open, sharedServer, uniqueRoot, waitForState } from '../support/integration.js';
import { everyText, observeChannels, recordingLogger } from '../support/observe.js';

const ALICE = 'alice-pw-7f3a9c';
const BOB = 'bob-pw-51d2e8';
const REFUSED = 'refused-pw-0c4d11';
const CAROL = 'carol-pw-9e8d7c';
const CAROL_WRONG = 'carol-wrong-4b3a2f';
/** The secrets, and the digest hashes made from them (what a digest ACL id carries after 'user:'). */
const SECRETS = [ALICE, BOB, REFUSED, CAROL, CAROL_WRONG, ...[['alice', ALICE], ['bob', BOB]].map(([u, p]) => digestId(u as string, p as string).split(':')[1] as string)];

describe('authentication on the channels and in the log', () => {
  let proxy: FaultProxy;
  let saslServer: ZooKeeperServer;
  const root = uniqueRoot('authobs');
  const observed = observeChannels();
  const { logger, lines } = recordingLogger();
  const clients: ZkClient[] = [];
  const client = (connectString: string, options: ClientOptions): ZkClient => {
    const c = createClient(connectString, { sessionTimeout: 4000, reconnectDelay: { min: 10, max: 20 }, logger, ...options });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    proxy = await startFaultProxy(hostPort(sharedServer()));
    saslServer = await startZooKeeper({ sasl: { digestUsers: { carol: CAROL } }, tickTime: 500, minSessionTimeout: 1000 });
  });
  afterAll(async () => {
    observed.stop();
    for (const c of clients) await c.close();
    const direct = await open(sharedServer(), { auth: [{ scheme: 'digest', auth: `alice:${ALICE}` }] });
    await direct.removeRecursive(root);
    await direct.close();
    await proxy.close();
    await saslServer?.[Symbol.asyncDispose]();
  });

  it('digest: each credential answered on each connection, a refused scheme; SASL DIGEST-MD5 accepted and refused', async () => {
    const zk = await client(proxy.connectString, { auth: [{ scheme: 'digest', auth: `alice:${ALICE}` }] }).connect();
    await zk.addAuth('digest', `bob:${BOB}`);
    await zk.create(root, 'secret data', { acl: [Acls.digest('alice', ALICE), Acls.digest('bob', BOB, 1)] });
    // Its result holds the digest hashes: the caller gets them, the trace does not.
    expect((await zk.getACL(root)).acl.map((a) => a.id.id)).toEqual([digestId('alice', ALICE), digestId('bob', BOB)]);
    await zk.getData(root);
    proxy.cut();
    await waitForState(zk, 'suspended', 2000).catch(() => undefined);
    await waitForState(zk, 'connected', 10_000);
    await zk.getData(root);

    const refused = await client(sharedServer(), {}).connect();
    await expect(refused.addAuth('no-such-scheme', `mallory:${REFUSED}`)).rejects.toBeInstanceOf(AuthFailedError);

    const carol = await client(saslServer.connectString, { sasl: { mechanism: 'DIGEST-MD5', username: 'carol', password: CAROL } }).connect();
    await carol.getData('/');
    const wrong = client(saslServer.connectString, { sasl: { mechanism: 'DIGEST-MD5', username: 'carol', password: CAROL_WRONG } });
    await expect(wrong.connect({ timeout: 10_000 })).rejects.toBeInstanceOf(AuthFailedError);

    const auth = observed.of(ChannelNames.auth);
    const mine = (c: ZkClient): unknown[] => auth.filter((m) => m.sessionId === c.sessionId).map((m) => [m.scheme, m.outcome, m.server]);
    // alice's at the handshake, bob's from addAuth; both replayed on the new connection.
    expect(mine(zk)).toEqual([
      ['digest', 'ok', proxy.connectString],
      ['digest', 'ok', proxy.connectString],
      ['digest', 'ok', proxy.connectString],
      ['digest', 'ok', proxy.connectString],
    ]);
    const live = `${hostPort(sharedServer()).host}:${hostPort(sharedServer()).port}`;
    expect(auth.filter((m) => m.sessionId === refused.sessionId)).toEqual([
      { sessionId: refused.sessionId, scheme: 'no-such-scheme', outcome: 'failed', server: live, cause: { code: 'AUTH_FAILED', message: expect.stringContaining('no-such-scheme') } },
    ]);
    expect(mine(carol)).toEqual([['sasl:DIGEST-MD5', 'ok', saslServer.connectString]]);
    expect(auth.filter((m) => m.scheme === 'sasl:DIGEST-MD5' && m.outcome === 'failed')).toEqual([
      expect.objectContaining({ outcome: 'failed', server: saslServer.connectString, cause: expect.objectContaining({ code: 'AUTH_FAILED' }) }),
    ]);
    // The refusals are logged as what ended those clients.
    expect(lines.filter(([level]) => level === 'error').map(([, message]) => message)).toEqual([
      expect.stringMatching(/^zkts: authentication failed on .+: the server refused the credential of scheme "no-such-scheme"/),
      expect.stringMatching(/^zkts: authentication failed on .+: SASL DIGEST-MD5: the server rejected the authentication/),
    ]);
  });

  it('no password, SASL secret or digest hash in any channel message or log line of that run', () => {
    // The run above did publish and log plenty: traces with results and errors, states, connections, sessions.
    expect(observed.published.length).toBeGreaterThan(40);
    expect(lines.length).toBeGreaterThan(10);
    const text = everyText([observed.published.map((p) => [p.name, p.message, p.seen]), lines]);
    expect(text).toContain('secret data');
    for (const secret of SECRETS) expect(text.includes(secret), `found ${secret}`).toBe(false);
  });
});
