// The GSSAPI mechanism's side of RFC 4752 against a scripted binding: the token sequence a ZooKeeper server
// expects, the security-layer choice, and the service principal Java would pick. The real thing (a KDC, a
// Kerberized server) is test/integration.
import { describe, expect, it } from 'vitest';
import { AuthFailedError } from '@zkts/protocol';
import { GssapiExchange, KerberosError, gssapi, type KerberosBinding, type KerberosClientLike } from '../../src/index.js';
import { b64, bytes, scriptedClient, text } from '../support/scripted-client.js';

describe('the GSSAPI exchange', () => {
  it('AP-REQ, then an empty token once the context is up, then the wrapped layer choice with our principal', async () => {
    const client = scriptedClient();
    const ex = new GssapiExchange(client, 'zookeeper/localhost');
    expect(text(await ex.initial())).toBe('AP-REQ');
    expect(text(await ex.evaluate(new Uint8Array(bytes('AP-REP'))))).toBe('');
    expect(ex.complete).toBe(false);
    expect(text(await ex.evaluate(new Uint8Array(bytes('WRAPPED-OFFER'))))).toBe('WRAPPED(alice@ZKTS.TEST)');
    expect(ex.complete).toBe(true);
    expect(client.calls).toEqual(["step ''", 'step AP-REP', 'unwrap WRAPPED-OFFER', 'wrap 8 bytes for alice@ZKTS.TEST protect=false']);
    await expect(ex.evaluate(new Uint8Array(0))).rejects.toBeInstanceOf(KerberosError);
  });

  it('without mutual authentication the context is up after the first token: the next server token is the offer', async () => {
    const client = scriptedClient();
    const oneShot: KerberosClientLike = {
      get contextComplete() {
        return true;
      },
      username: client.username,
      step: async () => b64(bytes('AP-REQ')),
      unwrap: client.unwrap,
      wrap: client.wrap,
    };
    const ex = new GssapiExchange(oneShot, 'zookeeper/localhost');
    expect(text(await ex.initial())).toBe('AP-REQ');
    expect(text(await ex.evaluate(new Uint8Array(bytes('WRAPPED-OFFER'))))).toBe('WRAPPED(alice@ZKTS.TEST)');
    expect(ex.complete).toBe(true);
    expect(client.calls).toEqual(['unwrap WRAPPED-OFFER', 'wrap 8 bytes for alice@ZKTS.TEST protect=false']);
  });

  it('refuses a server that offers no "no security layer" option, or a malformed offer', async () => {
    for (const offer of [[4, 0, 0, 0], [1, 0, 0]]) {
      const ex = new GssapiExchange(scriptedClient(offer), 'zookeeper/localhost');
      await ex.initial();
      await ex.evaluate(new Uint8Array(bytes('AP-REP')));
      await expect(ex.evaluate(new Uint8Array(1))).rejects.toBeInstanceOf(KerberosError);
    }
  });

  it('the mechanism asks the binding for zookeeper@<host> (or the configured principal) with the client principal', async () => {
    const asked: unknown[] = [];
    const binding: KerberosBinding = {
      initializeClient: async (service, options) => {
        asked.push([service, options]);
        return scriptedClient();
      },
    };
    await gssapi({ binding, canonicalizeHostname: false }).start({ host: 'zk1.example', port: 2181 });
    await gssapi({ binding, principal: 'bob@R', serverPrincipal: 'zk/server.example@R' }).start({ host: 'ignored', port: 2181 });
    await gssapi({ binding, serviceName: 'custom', canonicalizeHostname: false }).start({ host: 'h', port: 2181 });
    expect(asked).toEqual([
      ['zookeeper@zk1.example', {}],
      ['zk@server.example', { principal: 'bob@R' }],
      ['custom@h', {}],
    ]);
  });

  it('a binding that cannot get credentials fails as KerberosError (an AuthFailedError) with a reason', async () => {
    const binding: KerberosBinding = {
      initializeClient: () => Promise.reject(new Error("No Kerberos credentials available (default cache: FILE:/tmp/krb5cc_0)")),
    };
    const mechanism = gssapi({ binding, canonicalizeHostname: false });
    const error = await Promise.resolve()
      .then(() => mechanism.start({ host: 'h', port: 1 }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthFailedError);
    expect(error).toMatchObject({ name: 'KerberosError', code: 'AUTH_FAILED', reason: 'no-credentials' });
    expect((error as Error).message).toMatch(/run kinit/);
  });
});
