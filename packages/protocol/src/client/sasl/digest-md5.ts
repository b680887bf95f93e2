/**
 * DIGEST-MD5 (RFC 2831), the client side, as ZooKeeper speaks it: the mechanism of a server whose JAAS `Server`
 * section uses DigestLoginModule (users as `user_<name>="<password>"`). Written here on node:crypto so the
 * core keeps zero runtime dependencies. Only what ZooKeeper uses: qop=auth (authentication, no integrity or
 * privacy layer), algorithm=md5-sess, one nonce per connection (nc=00000001).
 *
 * The exchange, as Java's SaslClient does it for ZooKeeper (SecurityUtils.createSaslClient):
 *   client → ''                        no initial response
 *   server → realm, nonce, qop, charset, algorithm
 *   client → username, realm, nonce, cnonce, nc, digest-uri "zookeeper/zk-sasl-md5", response, qop, authzid
 *   server → rspauth                   the server's proof that it knows the password too; checked here
 * The response directives are written in Java's order, so our bytes equal Java's for the same cnonce
 * (test/unit/sasl-digest-md5.test.ts holds such a vector and RFC 2831's own example).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AuthFailedError, InvalidArgumentError, ProtocolError } from '../../errors/errors.js';
import { checkOptionKeys, describeValue } from '../../errors/option-keys.js';
import { parseDirectives, quote, single } from './directives.js';
import type { SaslExchange, SaslMechanism } from './mechanism.js';

/** A DIGEST-MD5 login: the user and password of a ZooKeeper DigestLoginModule (JAAS) entry. */
export interface DigestMd5Options {
  username: string;
  password: string;
  /**
   * The service part of the digest-uri, Java's `zookeeper.sasl.client.username`; default 'zookeeper'. It must
   * be what the server was started with (the server's "protocol").
   */
  protocol?: string;
  /** The host part of the digest-uri; ZooKeeper servers use 'zk-sasl-md5' (hard-wired on both sides in Java). */
  serverName?: string;
}

const DEFAULT_PROTOCOL = 'zookeeper';
const DEFAULT_SERVER_NAME = 'zk-sasl-md5';
const NONCE_COUNT = '00000001';
const MAX_BUF = 65536;
const EMPTY = new Uint8Array(0);

/** The built-in DIGEST-MD5 mechanism; same as `sasl: { mechanism: 'DIGEST-MD5', username, password }`. */
export function digestMd5(options: DigestMd5Options): SaslMechanism {
  checkOptionKeys(options, ['username', 'password', 'protocol', 'serverName'], 'digestMd5');
  if (options === undefined) throw new InvalidArgumentError('options', 'digestMd5 needs { username, password }, got undefined');
  const { username, password } = options;
  if (typeof username !== 'string' || username === '') throw new InvalidArgumentError('username', `DIGEST-MD5 needs a non-empty username, got ${describeValue(username)}`);
  if (typeof password !== 'string') throw new InvalidArgumentError('password', `DIGEST-MD5 needs a password string, got ${describeValue(password)}`);
  for (const key of ['protocol', 'serverName'] as const) {
    const value: unknown = options[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new InvalidArgumentError(key, `${key} must be a non-empty string, got ${describeValue(value)}`);
    }
  }
  const settings: Required<DigestMd5Options> = {
    username,
    password,
    protocol: options.protocol ?? DEFAULT_PROTOCOL,
    serverName: options.serverName ?? DEFAULT_SERVER_NAME,
  };
  return {
    name: 'DIGEST-MD5',
    start: () => new DigestMd5Exchange(settings, () => randomBytes(30).toString('base64')),
  };
}

/**
 * Latin-1 unless the server allows UTF-8 and the text needs it (RFC 2831 §2.1.2.1: text that fits ISO 8859-1 is
 * hashed as ISO 8859-1 even with charset=utf-8). Java decides per string exactly so.
 */
function credentialBytes(text: string, utf8: boolean): Buffer {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0xff) {
      if (utf8) return Buffer.from(text, 'utf8');
      throw new AuthFailedError('DIGEST-MD5: the server did not offer charset=utf-8 and a credential does not fit ISO 8859-1');
    }
  }
  return Buffer.from(text, 'latin1');
}

const md5 = (...parts: (Buffer | string)[]): Buffer => {
  const h = createHash('md5');
  for (const p of parts) h.update(p);
  return h.digest();
};

export interface DigestResponseInput {
  username: string;
  password: string;
  realm: string;
  nonce: string;
  cnonce: string;
  digestUri: string;
  authzid: string | undefined;
  utf8: boolean;
}

/** HEX(H(A1)) for md5-sess: everything both proofs (response, rspauth) derive from. */
function hashA1(v: DigestResponseInput): string {
  const enc = v.utf8 ? 'utf8' : 'latin1';
  const secret = md5(credentialBytes(v.username, v.utf8), ':', credentialBytes(v.realm, v.utf8), ':', credentialBytes(v.password, v.utf8));
  const tail = `:${v.nonce}:${v.cnonce}${v.authzid === undefined ? '' : `:${v.authzid}`}`;
  return md5(secret, Buffer.from(tail, enc)).toString('hex');
}

/** The response value (prefix 'AUTHENTICATE') or the expected rspauth (prefix ''), qop=auth. */
export function digestProof(v: DigestResponseInput, prefix: 'AUTHENTICATE' | ''): string {
  const ha2 = md5(`${prefix}:${v.digestUri}`).toString('hex');
  return md5(hashA1(v), `:${v.nonce}:${NONCE_COUNT}:${v.cnonce}:auth:${ha2}`).toString('hex');
}

export class DigestMd5Exchange implements SaslExchange {
  private stage: 'initial' | 'challenged' | 'done' = 'initial';
  private expected: Buffer | undefined;
  private readonly settings: Required<DigestMd5Options>;
  private readonly makeCnonce: () => string;

  constructor(settings: Required<DigestMd5Options>, makeCnonce: () => string) {
    this.settings = settings;
    this.makeCnonce = makeCnonce;
  }

  get complete(): boolean {
    return this.stage === 'done';
  }

  initial(): Uint8Array {
    return EMPTY;
  }

  evaluate(challenge: Uint8Array): Uint8Array | null {
    const text = Buffer.from(challenge.buffer, challenge.byteOffset, challenge.byteLength).toString('utf8');
    if (this.stage === 'initial') {
      this.stage = 'challenged';
      return this.respond(text);
    }
    if (this.stage === 'challenged') {
      this.verify(text);
      this.stage = 'done';
      return null;
    }
    throw new ProtocolError('DIGEST-MD5: the server sent a token after the exchange was complete');
  }

  /** Step one: the digest-response to the server's digest-challenge. */
  private respond(text: string): Buffer {
    if (text === '') throw new ProtocolError('DIGEST-MD5: the server sent an empty challenge (is SASL configured on the server?)');
    const d = parseDirectives(text);
    const nonce = single(d, 'nonce');
    if (nonce === undefined) throw new ProtocolError('DIGEST-MD5: the challenge has no nonce');
    const algorithm = single(d, 'algorithm');
    if (algorithm?.toLowerCase() !== 'md5-sess') throw new ProtocolError(`DIGEST-MD5: the challenge's algorithm must be md5-sess, got ${String(algorithm)}`);
    const qops = (single(d, 'qop') ?? 'auth').split(',').map((q) => q.trim().toLowerCase());
    if (!qops.includes('auth')) {
      throw new AuthFailedError(`DIGEST-MD5: the server offers only qop ${qops.join(', ')}; zkts supports authentication only (qop=auth)`);
    }
    const charset = single(d, 'charset');
    const utf8 = charset?.toLowerCase() === 'utf-8';
    const realm = d.get('realm')?.[0];
    const { username, password, protocol, serverName } = this.settings;
    const input: DigestResponseInput = {
      username,
      password,
      realm: realm ?? '',
      nonce,
      cnonce: this.makeCnonce(),
      digestUri: `${protocol}/${serverName}`,
      // As Java's client: the authorization id is the user itself.
      authzid: username,
      utf8,
    };
    this.expected = Buffer.from(digestProof(input, ''), 'latin1');
    const fields = [
      ...(utf8 ? ['charset=utf-8'] : []),
      `username=${quote(username)}`,
      ...(realm === undefined ? [] : [`realm=${quote(realm)}`]),
      `nonce=${quote(nonce)}`,
      `nc=${NONCE_COUNT}`,
      `cnonce=${quote(input.cnonce)}`,
      `digest-uri=${quote(input.digestUri)}`,
      `maxbuf=${MAX_BUF}`,
      `response=${digestProof(input, 'AUTHENTICATE')}`,
      'qop=auth',
      `authzid=${quote(username)}`,
    ];
    return Buffer.from(fields.join(','), utf8 ? 'utf8' : 'latin1');
  }

  /** Step two: the server proves it knows the password too (rspauth); a wrong proof is a failed authentication. */
  private verify(text: string): void {
    const rspauth = single(parseDirectives(text), 'rspauth');
    const expected = this.expected;
    if (rspauth === undefined || expected === undefined) throw new ProtocolError('DIGEST-MD5: the server\'s final message has no rspauth');
    const got = Buffer.from(rspauth.toLowerCase(), 'latin1');
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
      throw new AuthFailedError('DIGEST-MD5: the server\'s rspauth does not match: it does not know this password (or is not the server we think)');
    }
  }
}
