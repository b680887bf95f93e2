/**
 * ACLs and identities as ZooKeeper checks them: the authentication providers a standalone server registers
 * (digest and ip; world and auth are handled by name), `fixupACL` (PrepRequestProcessor: duplicates dropped,
 * `auth` expanded to the requester's authenticated ids, every id validated), `checkACL` (ZooKeeperServer: the
 * super id passes everything, world:anyone and matching ids grant their bits) and the identities whoAmI reports.
 */
import { createHash } from 'node:crypto';
import type { ACL, ClientInfo, Id } from '@zkts/protocol/codec';

import { javaStringHash } from './java-hash-order.js';

/** world:anyone with every permission (ZooDefs.Ids.OPEN_ACL_UNSAFE). */
export const OPEN_ACL: readonly ACL[] = Object.freeze([{ perms: 31, id: { scheme: 'world', id: 'anyone' } }]);
/** world:anyone READ (ZooDefs.Ids.READ_ACL_UNSAFE), the ACL of /zookeeper/config. */
export const READ_ACL: readonly ACL[] = Object.freeze([{ perms: 1, id: { scheme: 'world', id: 'anyone' } }]);

/** An identity of a connection (scheme and id never null here). */
export interface AuthId {
  readonly scheme: string;
  readonly id: string;
}

/** `user:base64(sha1("user:password"))`, DigestAuthenticationProvider.generateDigest. */
export function digestOf(userPassword: string): string {
  const user = userPassword.split(':', 1)[0] ?? '';
  return `${user}:${createHash('sha1').update(userPassword, 'utf8').digest('base64')}`;
}

/** Java's String.split(regex) without a limit: trailing empty strings dropped. */
function javaSplit(s: string, sep: string): string[] {
  const parts = s.split(sep);
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

function ipv4Bytes(addr: string): number[] | undefined {
  const parts = addr.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    // Integer.parseInt: optional sign, decimal digits.
    if (!/^[+-]?\d+$/.test(p)) return undefined;
    const v = Number.parseInt(p, 10);
    if (v < 0 || v > 255) return undefined;
    out.push(v);
  }
  return out;
}

function maskBits(b: number[], bits: number): void {
  let start = Math.floor(bits / 8);
  let startMask = ~((1 << (8 - (bits % 8))) - 1) & 0xff;
  while (start < b.length) {
    b[start] = (b[start] as number) & startMask;
    startMask = 0;
    start++;
  }
}

function parseBits(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const bits = Number.parseInt(s, 10);
  return bits < 0 || bits > 32 ? undefined : bits;
}

/** IPAuthenticationProvider.matches: `aclExpr` is an IPv4 address with an optional /bits. */
export function ipMatches(remote: string, aclExpr: string): boolean {
  const slash = aclExpr.indexOf('/');
  const acl = ipv4Bytes(slash < 0 ? aclExpr : aclExpr.slice(0, slash));
  if (acl === undefined) return false;
  const bits = slash < 0 ? 32 : parseBits(aclExpr.slice(slash + 1));
  if (bits === undefined) return false;
  const addr = ipv4Bytes(remote);
  if (addr === undefined) return false;
  maskBits(acl, bits);
  maskBits(addr, bits);
  return acl.every((v, i) => v === addr[i]);
}

/** KerberosName's syntax, which SASLAuthenticationProvider.isValid applies: an `@` only as `name[/host]@realm`. */
function kerberosNameValid(id: string): boolean {
  return !id.includes('@') || /^[^/@]*(\/[^/@]*)?@[^/@]*$/.test(id);
}

/** The ACL id syntax each registered provider accepts (isValid); `extra` lists the optional providers. */
function providerAccepts(scheme: string, id: string, extra: readonly string[]): boolean {
  if (scheme === 'sasl' && extra.includes('sasl')) return kerberosNameValid(id);
  if (scheme === 'x509' && extra.includes('x509')) return true;
  if (scheme === 'digest') return javaSplit(id, ':').length === 2;
  if (scheme === 'ip') {
    const slash = id.indexOf('/');
    if (ipv4Bytes(slash < 0 ? id : id.slice(0, slash)) === undefined) return false;
    return slash < 0 || parseBits(id.slice(slash + 1)) !== undefined;
  }
  return false;
}

/** The providers that count as "authenticated" for the `auth` scheme (ip does not). */
function isAuthenticatedScheme(scheme: string): boolean {
  return scheme === 'digest' || scheme === 'sasl' || scheme === 'x509';
}

/** The jute-generated Id.hashCode: 37 × (37 × 17 + scheme.hashCode()) + id.hashCode(), as an int. */
function idHash(a: AuthId): number {
  return (Math.imul(37, (Math.imul(37, 17) + javaStringHash(a.scheme)) | 0) + javaStringHash(a.id)) | 0;
}

/**
 * A connection's identities in the order ZooKeeper lists them: they live in a set backed by a
 * ConcurrentHashMap (16 bins, doubling at 3/4 full), which iterates bin by bin, ties in insertion order.
 */
export function authOrder(authInfo: readonly AuthId[]): AuthId[] {
  let bins = 16;
  while (authInfo.length >= bins * 0.75) bins *= 2;
  const keyed = authInfo.map((a, i) => {
    const h = idHash(a);
    return { a, i, bin: ((h ^ (h >>> 16)) & 0x7fffffff) & (bins - 1) };
  });
  keyed.sort((x, y) => x.bin - y.bin || x.i - y.i);
  return keyed.map((k) => k.a);
}

/** PrepRequestProcessor.fixupACL: the ACL to store, or undefined for InvalidACL. */
export function fixupACL(acls: readonly ACL[] | null, authInfo: readonly AuthId[], extra: readonly string[] = []): ACL[] | undefined {
  const unique: ACL[] = [];
  for (const a of acls ?? []) {
    if (!unique.some((u) => sameACL(u, a))) unique.push(a);
  }
  if (unique.length === 0) return undefined;
  const out: ACL[] = [];
  for (const a of unique) {
    const { scheme, id } = a.id;
    if (scheme === null) return undefined;
    if (scheme === 'world' && id === 'anyone') {
      out.push(a);
    } else if (scheme === 'auth') {
      let valid = false;
      for (const cid of authOrder(authInfo)) {
        if (isAuthenticatedScheme(cid.scheme)) {
          valid = true;
          out.push({ perms: a.perms, id: { scheme: cid.scheme, id: cid.id } });
        }
      }
      if (!valid) return undefined;
    } else {
      if (id === null || !providerAccepts(scheme, id, extra)) return undefined;
      out.push(a);
    }
  }
  return out;
}

function sameACL(a: ACL, b: ACL): boolean {
  return a.perms === b.perms && a.id.scheme === b.id.scheme && a.id.id === b.id.id;
}

/** ZooKeeperServer.checkACL: whether `authInfo` holds `perm` on a node with `acl`. */
export function hasPermission(acl: readonly ACL[], perm: number, authInfo: readonly AuthId[]): boolean {
  if (acl.length === 0) return true;
  if (authInfo.some((a) => a.scheme === 'super')) return true;
  for (const a of acl) {
    if ((a.perms & perm) === 0) continue;
    const { scheme, id } = a.id;
    if (scheme === 'world' && id === 'anyone') return true;
    if (scheme === 'digest' || scheme === 'ip' || scheme === 'sasl' || scheme === 'x509') {
      for (const auth of authInfo) {
        if (auth.scheme !== scheme || id === null) continue;
        if (scheme === 'ip' ? ipMatches(auth.id, id) : auth.id === id) return true;
      }
    }
  }
  return false;
}

/** getACL without ADMIN: digest ids keep their user and hide the hash (`user:x`). */
export function maskDigests(acl: readonly ACL[]): ACL[] {
  return acl.map((a) =>
    a.id.scheme === 'digest' && a.id.id !== null ? { perms: a.perms, id: { scheme: 'digest', id: a.id.id.replace(/:.*/g, ':x') } } : a,
  );
}

/** AuthUtil.getClientInfos: each identity with the user name its provider reports ('' without a provider). */
export function clientInfos(authInfo: readonly AuthId[]): ClientInfo[] {
  return authOrder(authInfo).map((a) => {
    if (a.scheme === 'digest') return { authScheme: a.scheme, user: a.id.split(':', 1)[0] ?? '' };
    if (a.scheme === 'ip' || a.scheme === 'sasl' || a.scheme === 'x509') return { authScheme: a.scheme, user: a.id };
    return { authScheme: a.scheme, user: '' };
  });
}

/** Copies an ACL list out of a request (records borrowed from a frame are not kept). */
export function copyACLs(acl: readonly ACL[]): ACL[] {
  return acl.map((a) => ({ perms: a.perms, id: { scheme: a.id.scheme, id: a.id.id } as Id }));
}
