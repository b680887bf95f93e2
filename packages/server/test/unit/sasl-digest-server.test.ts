// The DIGEST-MD5 server against exchanges recorded from Java's SaslClient (JDK 17): given the same nonce, our
// challenge is byte for byte the one Java's DigestMD5Server sent, and Java's responses earn the rspauth Java's
// server answered. Then the refusals: a wrong password, an unknown user, another nonce, realm or digest-uri.
import { describe, expect, it } from 'vitest';

import { DigestMd5Server, SaslFailure } from '../../src/sasl/digest-md5-server.js';

const utf8 = (s: string): Uint8Array => Buffer.from(s, 'utf8');
const text = (b: Uint8Array): string => Buffer.from(b).toString('utf8');

const VECTORS = [
  {
    user: 'bob',
    password: 'bobsecret',
    nonce: '/9S703+5V8qjfazt2Je/uCwztzoF0gmKTiHKnh0u',
    response:
      'charset=utf-8,username="bob",realm="zk-sasl-md5",nonce="/9S703+5V8qjfazt2Je/uCwztzoF0gmKTiHKnh0u",nc=00000001,' +
      'cnonce="6Raln53DYzj4y1cIQpceNhPNvIShItnyLg8V1KqR",digest-uri="zookeeper/zk-sasl-md5",maxbuf=65536,' +
      'response=ade6a8e85ab810fdcfb81cfcd7321339,qop=auth,authzid="bob"',
    rspauth: 'rspauth=9e3c94bb926d6387a5d0102367f3c6a5',
  },
  {
    user: 'bjørn',
    password: 'pässwörd€',
    nonce: 'upLyA+BQAay4boa5toYD6KqiiLNr52D+hB/JAI2q',
    response:
      'charset=utf-8,username="bjørn",realm="zk-sasl-md5",nonce="upLyA+BQAay4boa5toYD6KqiiLNr52D+hB/JAI2q",nc=00000001,' +
      'cnonce="rfs9jYsU3dGsjerRBuu3BVyhSqtEnrYKL5VptKvU",digest-uri="zookeeper/zk-sasl-md5",maxbuf=65536,' +
      'response=e28ffbef9eadc93da290e0bebe27ac14,qop=auth,authzid="bjørn"',
    rspauth: 'rspauth=8effac5bf182cfb765411cab8fff6867',
  },
];

describe('DIGEST-MD5 server', () => {
  for (const v of VECTORS) {
    it(`Java's exchange for ${v.user}: same challenge, same rspauth, authorized as the user`, () => {
      const server = new DigestMd5Server(new Map([[v.user, v.password]]), v.nonce);
      expect(text(server.evaluate(new Uint8Array(0)))).toBe(`realm="zk-sasl-md5",nonce="${v.nonce}",charset=utf-8,algorithm=md5-sess`);
      expect(server.complete).toBe(false);
      expect(text(server.evaluate(utf8(v.response)))).toBe(v.rspauth);
      expect(server.complete).toBe(true);
      expect(server.authorizationId).toBe(v.user);
      expect(() => server.evaluate(new Uint8Array(0))).toThrow(SaslFailure);
    });
  }

  const v = VECTORS[0] as (typeof VECTORS)[number];
  const cases: [string, Map<string, string>, string][] = [
    ['a wrong password', new Map([['bob', 'other']]), v.response],
    ['an unknown user', new Map([['alice', 'bobsecret']]), v.response],
    ['another nonce', new Map([['bob', 'bobsecret']]), v.response.replaceAll(v.nonce, 'x')],
    ['another realm', new Map([['bob', 'bobsecret']]), v.response.replace('realm="zk-sasl-md5"', 'realm="other"')],
    ['another digest-uri', new Map([['bob', 'bobsecret']]), v.response.replace('zookeeper/zk-sasl-md5', 'zookeeper/other')],
    ['a second nonce count', new Map([['bob', 'bobsecret']]), v.response.replace('nc=00000001', 'nc=00000002')],
    ['garbage', new Map([['bob', 'bobsecret']]), 'username="bob'],
  ];
  for (const [name, users, response] of cases) {
    it(`refuses ${name}`, () => {
      const server = new DigestMd5Server(users, v.nonce);
      server.evaluate(new Uint8Array(0));
      expect(() => server.evaluate(utf8(response))).toThrow(SaslFailure);
      expect(server.complete).toBe(false);
      expect(server.authorizationId).toBeUndefined();
    });
  }
});
