/**
 * DIGEST-MD5 (RFC 2831), the server side, as Java's DigestMD5Server answers a ZooKeeper client: users from the
 * options (ZooKeeper's DigestLoginModule `user_<name>` entries), realm `zk-sasl-md5`, service `zookeeper`, qop
 * auth only, algorithm md5-sess, charset utf-8. The exchange:
 *   client → ''             server → realm, nonce, charset, algorithm (the challenge)
 *   client → the response   server → rspauth (complete: the authorization id is the user name)
 * Anything wrong in the response (unknown user, bad proof, another nonce, realm or digest-uri) is a
 * SaslFailure, which the sasl request turns into AuthFailed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The realm and server name ZooKeeper's server hard-wires for DIGEST-MD5. */
export const DIGEST_REALM = 'zk-sasl-md5';
const DIGEST_URI = `zookeeper/${DIGEST_REALM}`;
const NONCE_COUNT = '00000001';

/** A failed SASL exchange (Java's SaslException), with its reason for the log. */
export class SaslFailure extends Error {
  constructor(message: string) {
    super(`DIGEST-MD5: ${message}`);
    this.name = 'SaslFailure';
  }
}

/** RFC 2831 directives: `key=value` or `key="quoted \" value"`, comma separated; a repeated key keeps all. */
export function parseDirectives(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /[\s,]/.test(text[i] as string)) i++;
    if (i >= text.length) break;
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new SaslFailure('digest response format violation: a directive without a value');
    const key = text.slice(i, eq).trim().toLowerCase();
    i = eq + 1;
    let value = '';
    if (text[i] === '"') {
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\') i++;
        value += text[i] ?? '';
        i++;
      }
      if (i >= text.length) throw new SaslFailure('digest response format violation: an unterminated quoted value');
      i++;
    } else {
      const end = text.indexOf(',', i);
      value = text.slice(i, end < 0 ? text.length : end).trim();
      i = end < 0 ? text.length : end;
    }
    const list = out.get(key) ?? [];
    list.push(value);
    out.set(key, list);
  }
  return out;
}

/** ISO 8859-1 when the text fits it, else UTF-8 (RFC 2831 §2.1.2.1, as Java encodes each credential). */
function credential(text: string): Buffer {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return Buffer.from(text, 'utf8');
  return Buffer.from(text, 'latin1');
}

function md5(...parts: (Buffer | string)[]): Buffer {
  const h = createHash('md5');
  for (const p of parts) h.update(p);
  return h.digest();
}

interface ProofInput {
  username: string;
  realm: string;
  password: string;
  nonce: string;
  cnonce: string;
  authzid: string | undefined;
  digestUri: string;
}

/** The response (prefix AUTHENTICATE) or rspauth (prefix '') for qop=auth, algorithm md5-sess. */
function proof(v: ProofInput, prefix: 'AUTHENTICATE' | ''): string {
  const secret = md5(credential(v.username), ':', credential(v.realm), ':', credential(v.password));
  const tail = `:${v.nonce}:${v.cnonce}${v.authzid === undefined ? '' : `:${v.authzid}`}`;
  const ha1 = md5(secret, Buffer.from(tail, 'utf8')).toString('hex');
  const ha2 = md5(`${prefix}:${v.digestUri}`).toString('hex');
  return md5(ha1, `:${v.nonce}:${NONCE_COUNT}:${v.cnonce}:auth:${ha2}`).toString('hex');
}

function one(d: Map<string, string[]>, key: string): string | undefined {
  const values = d.get(key);
  if (values !== undefined && values.length > 1) throw new SaslFailure(`digest response format violation: ${key} repeated`);
  return values?.[0];
}

/** One connection's DIGEST-MD5 exchange. */
export class DigestMd5Server {
  private stage: 'start' | 'challenged' | 'complete' = 'start';
  private authorized: string | undefined;

  /** `nonce` is for tests: by default 30 random bytes in base64, as Java makes it. */
  constructor(
    private readonly users: ReadonlyMap<string, string>,
    private readonly nonce: string = randomBytes(30).toString('base64'),
  ) {}

  get complete(): boolean {
    return this.stage === 'complete';
  }

  /** The authenticated user, once complete. */
  get authorizationId(): string | undefined {
    return this.authorized;
  }

  /** Evaluates the client's token and returns the server's; throws SaslFailure. */
  evaluate(token: Uint8Array): Uint8Array {
    if (this.stage === 'start') {
      this.stage = 'challenged';
      return Buffer.from(`realm="${DIGEST_REALM}",nonce="${this.nonce}",charset=utf-8,algorithm=md5-sess`, 'utf8');
    }
    if (this.stage === 'challenged') {
      const rspauth = this.validate(Buffer.from(token).toString('utf8'));
      this.stage = 'complete';
      return Buffer.from(`rspauth=${rspauth}`, 'utf8');
    }
    throw new SaslFailure('the authentication exchange has completed');
  }

  private validate(text: string): string {
    const d = parseDirectives(text);
    const username = one(d, 'username');
    if (username === undefined) throw new SaslFailure('digest response format violation: missing username');
    const realm = one(d, 'realm') ?? '';
    if (realm !== DIGEST_REALM) throw new SaslFailure(`digest response format violation. Nonexistent realm: ${realm}`);
    if (one(d, 'nonce') !== this.nonce) throw new SaslFailure('digest response format violation. Mismatched nonce.');
    if (one(d, 'nc') !== NONCE_COUNT) throw new SaslFailure('digest response format violation. Nonce count does not match');
    const cnonce = one(d, 'cnonce');
    if (cnonce === undefined) throw new SaslFailure('digest response format violation: missing cnonce');
    const qop = one(d, 'qop') ?? 'auth';
    if (qop !== 'auth') throw new SaslFailure(`digest response format violation. Invalid QOP: ${qop}`);
    const digestUri = one(d, 'digest-uri') ?? '';
    if (digestUri.toLowerCase() !== DIGEST_URI) throw new SaslFailure(`digest response format violation. Mismatched URI: ${digestUri}; expecting: ${DIGEST_URI}`);
    const password = this.users.get(username);
    if (password === undefined) throw new SaslFailure(`cannot acquire password for ${username} in realm : ${realm}`);
    const input: ProofInput = { username, realm, password, nonce: this.nonce, cnonce, authzid: one(d, 'authzid'), digestUri };
    const expected = Buffer.from(proof(input, 'AUTHENTICATE'), 'latin1');
    const got = Buffer.from((one(d, 'response') ?? '').toLowerCase(), 'latin1');
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
      throw new SaslFailure('digest response format violation. Mismatched response.');
    }
    // SaslServerCallbackHandler authorizes every authenticated user under its own name.
    this.authorized = username;
    return proof(input, '');
  }
}
