/**
 * ACL helpers and client-side ACL validation. Digest ids are computed here, like Java's
 * DigestAuthenticationProvider.generateDigest: `user:base64(sha1("user:password"))`.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { InvalidArgumentError } from '../errors/errors.js';
import { describeValue } from '../errors/option-keys.js';
import { Perms } from '../codec/records/constants.js';
import type { ACL } from './types.js';


/** 'user:base64(sha1(user:password))'. */
export function digestId(user: string, password: string): string {
  if (typeof user !== 'string') throw new InvalidArgumentError('user', `digestId needs a user string, got ${describeValue(user)}`);
  if (typeof password !== 'string') throw new InvalidArgumentError('password', `digestId needs a password string, got ${describeValue(password)}`);
  const hash = createHash('sha1').update(`${user}:${password}`, 'utf8').digest('base64');
  return `${user}:${hash}`;
}

/** ACL builders for `create`, `setACL` and multi ops. The names say what each grants. */
export const Acls = {
  /** world:anyone with every permission: anyone can do anything. */
  openUnsafe(): ACL[] {
    return [{ perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } }];
  },
  /** Anyone may read; nobody may change (world:anyone, READ). */
  readUnsafe(): ACL[] {
    return [{ perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } }];
  },
  /** Every permission for the identities the session authenticated with (needs addAuth first). */
  creatorAll(): ACL[] {
    return [{ perms: Perms.ALL, id: { scheme: 'auth', id: '' } }];
  },
  /** One digest identity (`user:password`, hashed as ZooKeeper does) with `perms` (default ALL). */
  digest(user: string, password: string, perms: number = Perms.ALL): ACL {
    return { perms, id: { scheme: 'digest', id: digestId(user, password) } };
  },
  /** Clients from one IP address or `address/bits` range, with `perms` (default ALL). */
  ip(address: string, perms: number = Perms.ALL): ACL {
    return { perms, id: { scheme: 'ip', id: address } };
  },
  /**
   * A SASL identity (SASLAuthenticationProvider): the id the server gave the session, as whoAmI shows it —
   * the DIGEST-MD5 user, or the Kerberos principal as the server's auth_to_local rules shorten it.
   */
  sasl(id: string, perms: number = Perms.ALL): ACL {
    return { perms, id: { scheme: 'sasl', id } };
  },
  /**
   * A client certificate's subject (X509AuthenticationProvider): the distinguished name in RFC 2253 form, as
   * Java's X500Principal.getName() writes it and whoAmI shows it, e.g. 'CN=app,O=Example'.
   */
  x509(subjectDN: string, perms: number = Perms.ALL): ACL {
    return { perms, id: { scheme: 'x509', id: subjectDN } };
  },
} as const;

const KNOWN_SCHEMES = new Set(['world', 'auth', 'digest', 'ip', 'x509', 'sasl', 'super', 'key']);

function validIpId(id: string): boolean {
  const slash = id.indexOf('/');
  const address = slash < 0 ? id : id.slice(0, slash);
  const kind = isIP(address);
  if (kind === 0) return false;
  if (slash < 0) return true;
  const bits = id.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (kind === 4 ? 32 : 128);
}

/** Rejects what the server would answer INVALID_ACL for (and a few things it would accept by mistake). */
export function validateAcl(acl: readonly ACL[] | undefined | null): void {
  if (!Array.isArray(acl) || acl.length === 0) throw new InvalidArgumentError('acl', `ACL list must be a non-empty array, got ${describeValue(acl)}`);
  for (const entry of acl) {
    const perms: unknown = entry?.perms;
    if (typeof perms !== 'number' || !Number.isInteger(perms) || perms < 0 || perms > Perms.ALL) {
      throw new InvalidArgumentError('acl', `perms must be an integer in 0..31, got ${describeValue(perms)}`);
    }
    const scheme: unknown = entry.id?.scheme;
    const id: unknown = entry.id?.id;
    if (typeof scheme !== 'string' || typeof id !== 'string') {
      throw new InvalidArgumentError('acl', `each ACL needs id.scheme and id.id strings, got ${describeValue(scheme)} and ${describeValue(id)}`);
    }
    if (!KNOWN_SCHEMES.has(scheme)) throw new InvalidArgumentError('acl', `unknown scheme ${JSON.stringify(scheme)}`);
    if (scheme === 'world' && id !== 'anyone') throw new InvalidArgumentError('acl', 'world scheme only has id "anyone"');
    if (scheme === 'digest') {
      const colon = id.indexOf(':');
      if (colon <= 0 || colon === id.length - 1 || id.indexOf(':', colon + 1) >= 0) {
        throw new InvalidArgumentError('acl', `digest id must be "user:hash", got ${JSON.stringify(id)} (see digestId())`);
      }
    }
    if (scheme === 'ip' && !validIpId(id)) throw new InvalidArgumentError('acl', `bad ip id ${JSON.stringify(id)}`);
    if ((scheme === 'sasl' || scheme === 'x509') && id === '') throw new InvalidArgumentError('acl', `a ${scheme} ACL needs an id`);
  }
}
