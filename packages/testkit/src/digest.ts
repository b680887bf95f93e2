import { createHash } from 'node:crypto';

/** ZooKeeper's digest id: `user:base64(sha1("user:password"))` (DigestAuthenticationProvider.generateDigest). */
export function digestCredential(user: string, password: string): string {
  const hash = createHash('sha1').update(`${user}:${password}`, 'utf8').digest('base64');
  return `${user}:${hash}`;
}
