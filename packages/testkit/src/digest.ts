import { createHash } from 'node:crypto';

import { checkString } from './option-checks.js';

/** ZooKeeper's digest id: `user:base64(sha1("user:password"))` (DigestAuthenticationProvider.generateDigest). */
export function digestCredential(user: string, password: string): string {
  checkString('digestCredential', 'user', user, { optional: false });
  checkString('digestCredential', 'password', password, { optional: false, empty: true });
  const hash = createHash('sha1').update(`${user}:${password}`, 'utf8').digest('base64');
  return `${user}:${hash}`;
}
