/**
 * ACL specs as zkCli writes them: comma-separated `scheme:id:perms`, perms being letters of `cdrwa`
 * (create, delete, read, write, admin). The id may itself contain colons (`digest:user:hash`, IPv6), so
 * the scheme ends at the first colon and the perms start after the last one.
 *
 * The two mistakes that lock people out are caught here rather than by the server, which accepts both: a
 * digest id with the password where its hash belongs (`digest:bob:secret:cdrwa` grants nobody anything), and
 * the `auth` scheme on a session without credentials (the server answers INVALID_ACL, which says nothing).
 */
import { digestId, ZkError } from '@zkts/protocol';
import type { ACL } from '@zkts/protocol';

import type { GlobalOptions } from './command.js';
import { CliError, ExitCode } from './exit-codes.js';

const LETTERS: Readonly<Record<string, number>> = { r: 1, w: 2, c: 4, d: 8, a: 16 };

/**
 * Sizes in bytes of the digests a server may be configured to use (zookeeper.DigestAuthenticationProvider.digestAlg):
 * SHA-1 (the default; 28 base64 characters), SHA-224, SHA-256 and SHA3-256, SHA-384, SHA-512.
 */
const DIGEST_BYTES = new Set([20, 28, 32, 48, 64]);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function parsePerms(text: string, entry: string): number {
  if (text === '') throw bad(entry, 'no permissions (use letters of cdrwa)');
  let perms = 0;
  for (const letter of text) {
    const bit = LETTERS[letter];
    if (bit === undefined) throw bad(entry, `unknown permission '${letter}' (use letters of cdrwa)`);
    perms |= bit;
  }
  return perms;
}

export function parseAclSpec(spec: string): ACL[] {
  const entries = spec.split(',').map((s) => s.trim());
  if (entries.length === 0 || entries.some((e) => e === '')) throw bad(spec, 'empty entry');
  return entries.map((entry) => {
    const first = entry.indexOf(':');
    const last = entry.lastIndexOf(':');
    if (first <= 0 || last === first) throw bad(entry, 'expected scheme:id:perms');
    const scheme = entry.slice(0, first);
    const id = entry.slice(first + 1, last);
    if (scheme === 'digest') checkDigestId(id, entry.slice(last + 1));
    return { perms: parsePerms(entry.slice(last + 1), entry), id: { scheme, id } };
  });
}

/**
 * A digest id is `user:base64(hash of "user:password")`; anything else is most likely the password itself, so
 * the message shows the entry with `…` in its place.
 */
function checkDigestId(id: string, perms: string): void {
  const colon = id.indexOf(':');
  const user = colon < 0 ? id : id.slice(0, colon);
  const hash = colon < 0 ? '' : id.slice(colon + 1);
  if (colon > 0 && isDigest(hash)) return;
  const example = user === '' || colon < 0 ? 'USER:PASSWORD' : `${user}:PASSWORD`;
  throw bad(
    colon < 0 ? `digest:${id}:${perms}` : `digest:${user}:…:${perms}`,
    `a digest id is USER:HASH, the base64 SHA-1 of USER:PASSWORD (28 characters), not the password itself; ` +
      `\`zkts acl digest ${example}\` prints it`,
  );
}

function isDigest(hash: string): boolean {
  if (hash.length % 4 !== 0 || !BASE64.test(hash)) return false;
  const padding = hash.endsWith('==') ? 2 : hash.endsWith('=') ? 1 : 0;
  return DIGEST_BYTES.has((hash.length / 4) * 3 - padding);
}

/**
 * `user:password` → the digest id ZooKeeper compares with (DigestAuthenticationProvider.generateDigest, kazoo's
 * make_digest_acl): the user is everything before the first colon, the password everything after it.
 */
export function digestOf(credentials: string): string {
  const colon = credentials.indexOf(':');
  if (colon <= 0) throw new CliError(ExitCode.USAGE, 'expected USER:PASSWORD (the user ends at the first colon)');
  return digestId(credentials.slice(0, colon), credentials.slice(colon + 1));
}

/** Credentials the server can put in place of `auth::perms` (digest, SASL and x509 identities; not ip). */
function hasCredentials(global: GlobalOptions): boolean {
  return global.auth.length > 0 || global.sasl !== undefined || global.tls?.cert !== undefined;
}

/**
 * The server's INVALID_ACL for an ACL with an `auth` entry, on a session that has no credentials, in words: the
 * `auth` scheme stands for the session's own authenticated identities, and there are none. Other errors are
 * returned as they are. The code stays INVALID_ACL (scripts and --json see the server's answer).
 */
export function explainAclError(error: unknown, acl: readonly ACL[], global: GlobalOptions): unknown {
  if (!(error instanceof ZkError) || error.code !== 'INVALID_ACL') return error;
  if (!acl.some((entry) => entry.id.scheme === 'auth') || hasCredentials(global)) return error;
  return new ZkError(
    'INVALID_ACL',
    `${error.message}: the auth scheme grants the session's own authenticated identities, and this session has none; ` +
      'authenticate first: zkts --auth digest:USER:PASSWORD …',
    { cause: error },
  );
}

function bad(entry: string, message: string): CliError {
  return new CliError(ExitCode.USAGE, `bad ACL '${entry}': ${message}`);
}
