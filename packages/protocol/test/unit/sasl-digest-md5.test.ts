// DIGEST-MD5 (RFC 2831) on known answers: RFC 2831 §4's worked example, and vectors made by Java's own
// SaslClient/SaslServer (the JDK's DIGEST-MD5, exactly as ZooKeeper creates them: protocol "zookeeper", server
// name "zk-sasl-md5", authzid = user). To make a new Java vector: compile and run
// test/fixtures/DigestMd5Vector.java (`javac -d /tmp DigestMd5Vector.java && java -cp /tmp DigestMd5Vector
// <user> <password>`); it prints the server's challenge, the client's response (whose cnonce is random) and the
// server's rspauth. Given the challenge and that cnonce, ours must write the same bytes and accept the rspauth.
// The live version (random nonces, every run) is test/integration/sasl-java-interop.test.ts.
import { describe, expect, it } from 'vitest';
import { DigestMd5Exchange, digestMd5, digestProof } from '../../src/client/sasl/digest-md5.js';
import { parseDirectives } from '../../src/client/sasl/directives.js';
import { AuthFailedError, InvalidArgumentError, ProtocolError } from '../../src/index.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array | null): string => (b === null ? '<null>' : Buffer.from(b).toString('utf8'));

function exchange(username: string, password: string, cnonce: string): DigestMd5Exchange {
  return new DigestMd5Exchange({ username, password, protocol: 'zookeeper', serverName: 'zk-sasl-md5' }, () => cnonce);
}

/** Runs our client through a recorded exchange; returns what it sent. */
function replay(v: { user: string; password: string; challenge: string; response: string; rspauth: string }): { response: string; complete: boolean } {
  const cnonce = /cnonce="([^"]+)"/.exec(v.response)?.[1] ?? '';
  const ex = exchange(v.user, v.password, cnonce);
  expect(ex.initial()).toHaveLength(0);
  const response = ex.evaluate(utf8(v.challenge));
  expect(ex.complete).toBe(false);
  expect(ex.evaluate(utf8(v.rspauth))).toBeNull();
  return { response: text(response), complete: ex.complete };
}

describe('DIGEST-MD5 known answers', () => {
  it("RFC 2831 §4's example: response and rspauth", () => {
    const input = {
      username: 'chris',
      password: 'secret',
      realm: 'elwood.innosoft.com',
      nonce: 'OA6MG9tEQGm2hh',
      cnonce: 'OA6MHXh6VqTrRk',
      digestUri: 'imap/elwood.innosoft.com',
      authzid: undefined,
      utf8: true,
    };
    expect(digestProof(input, 'AUTHENTICATE')).toBe('d388dad90d4bbd760a152321f2143af7');
    expect(digestProof(input, '')).toBe('ea40f60335c427b5527b84dbabcdfffd');
  });

  it("Java's SaslClient (JDK 17) for bob/bobsecret: the same bytes, rspauth accepted", () => {
    const v = {
      user: 'bob',
      password: 'bobsecret',
      challenge: 'realm="zk-sasl-md5",nonce="/9S703+5V8qjfazt2Je/uCwztzoF0gmKTiHKnh0u",charset=utf-8,algorithm=md5-sess',
      response:
        'charset=utf-8,username="bob",realm="zk-sasl-md5",nonce="/9S703+5V8qjfazt2Je/uCwztzoF0gmKTiHKnh0u",nc=00000001,' +
        'cnonce="6Raln53DYzj4y1cIQpceNhPNvIShItnyLg8V1KqR",digest-uri="zookeeper/zk-sasl-md5",maxbuf=65536,' +
        'response=ade6a8e85ab810fdcfb81cfcd7321339,qop=auth,authzid="bob"',
      rspauth: 'rspauth=9e3c94bb926d6387a5d0102367f3c6a5',
    };
    expect(replay(v)).toEqual({ response: v.response, complete: true });
  });

  it("Java's vector for bjørn / pässwörd€: Latin-1 user hashed as Latin-1, the password (€) as UTF-8", () => {
    const v = {
      user: 'bjørn',
      password: 'pässwörd€',
      challenge: 'realm="zk-sasl-md5",nonce="upLyA+BQAay4boa5toYD6KqiiLNr52D+hB/JAI2q",charset=utf-8,algorithm=md5-sess',
      response:
        'charset=utf-8,username="bjørn",realm="zk-sasl-md5",nonce="upLyA+BQAay4boa5toYD6KqiiLNr52D+hB/JAI2q",nc=00000001,' +
        'cnonce="rfs9jYsU3dGsjerRBuu3BVyhSqtEnrYKL5VptKvU",digest-uri="zookeeper/zk-sasl-md5",maxbuf=65536,' +
        'response=e28ffbef9eadc93da290e0bebe27ac14,qop=auth,authzid="bjørn"',
      rspauth: 'rspauth=8effac5bf182cfb765411cab8fff6867',
    };
    expect(replay(v)).toEqual({ response: v.response, complete: true });
  });
});

describe('DIGEST-MD5 against a misbehaving server', () => {
  const challenge = 'realm="zk-sasl-md5",nonce="abc",charset=utf-8,algorithm=md5-sess';

  it('a wrong rspauth is an AuthFailedError: the server is not proven', () => {
    const ex = exchange('bob', 'bobsecret', 'xyz');
    ex.evaluate(utf8(challenge));
    expect(() => ex.evaluate(utf8('rspauth=00000000000000000000000000000000'))).toThrow(AuthFailedError);
    expect(ex.complete).toBe(false);
  });

  it('an empty challenge (no SASL on the server), no nonce, or another algorithm is refused', () => {
    expect(() => exchange('u', 'p', 'c').evaluate(new Uint8Array(0))).toThrow(/empty challenge/);
    expect(() => exchange('u', 'p', 'c').evaluate(utf8('realm="r",algorithm=md5-sess'))).toThrow(/no nonce/);
    expect(() => exchange('u', 'p', 'c').evaluate(utf8('nonce="n",algorithm=md5'))).toThrow(ProtocolError);
    expect(() => exchange('u', 'p', 'c').evaluate(utf8('nonce="n",nonce="m",algorithm=md5-sess'))).toThrow(/2 times/);
  });

  it('a server that insists on integrity or privacy is refused (only qop=auth)', () => {
    expect(() => exchange('u', 'p', 'c').evaluate(utf8('nonce="n",qop="auth-int,auth-conf",algorithm=md5-sess'))).toThrow(AuthFailedError);
  });

  it('without charset=utf-8 a credential outside Latin-1 cannot be sent', () => {
    expect(() => exchange('u', '€', 'c').evaluate(utf8('nonce="n",algorithm=md5-sess'))).toThrow(AuthFailedError);
  });

  it('a token after completion is a protocol error', () => {
    const ex = exchange('bob', 'bobsecret', 'xyz');
    const response = text(ex.evaluate(utf8(challenge)));
    const input = { username: 'bob', password: 'bobsecret', realm: 'zk-sasl-md5', nonce: 'abc', cnonce: 'xyz', digestUri: 'zookeeper/zk-sasl-md5', authzid: 'bob', utf8: true };
    expect(response).toContain(`response=${digestProof(input, 'AUTHENTICATE')}`);
    ex.evaluate(utf8(`rspauth=${digestProof(input, '')}`));
    expect(ex.complete).toBe(true);
    expect(() => ex.evaluate(utf8('rspauth=x'))).toThrow(ProtocolError);
  });

  it('options are checked when the mechanism is made', () => {
    expect(() => digestMd5({ username: '', password: 'p' })).toThrow(InvalidArgumentError);
    expect(digestMd5({ username: 'u', password: 'p' }).name).toBe('DIGEST-MD5');
  });
});

describe('directive lists', () => {
  it('quoted strings with escapes, tokens, empty elements, whitespace, repeated realms', () => {
    const d = parseDirectives(' realm="a\\"b" , ,realm=two,nonce="x,y",  QOP="auth,auth-int"\t,stale=true');
    expect(d.get('realm')).toEqual(['a"b', 'two']);
    expect(d.get('nonce')).toEqual(['x,y']);
    expect(d.get('qop')).toEqual(['auth,auth-int']);
    expect(d.get('stale')).toEqual(['true']);
  });

  it('malformed input is a ProtocolError, never a hang or a crash', () => {
    for (const bad of ['nonce', 'nonce="x', 'nonce="x" y=1', '=x', 'a b=1']) {
      expect(() => parseDirectives(bad), bad).toThrow(ProtocolError);
    }
  });
});
