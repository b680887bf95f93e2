/**
 * The client's ACL provider (Curator's ACLProvider): the ACL every create that names none gets — `create`,
 * `mkdirp`'s parents, multi's create ops, and so every recipe node — from a default and an optional function of
 * the path. Checked once when the client is made; what `forPath` returns is checked at each create.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { checkOptionKeys, describeValue } from '../errors/option-keys.js';
import { Acls, validateAcl } from './acl.js';
import type { ACL, AclProvider } from './types.js';

/** The ACL of a create without `acl` at `path` (the client's path, as the caller wrote it). */
export type AclFor = (path: string) => ACL[];

/** Rejects an aclProvider option that is not `{ default: ACL[], forPath?: function }`. */
export function checkAclProvider(value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError('aclProvider', `aclProvider must be an object with a default ACL list, got ${describeValue(value)}`);
  }
  checkOptionKeys(value, ['default', 'forPath'], 'aclProvider');
  const provider = value as Record<string, unknown>;
  try {
    validateAcl(provider['default'] as ACL[]);
  } catch (err) {
    if (err instanceof InvalidArgumentError) throw new InvalidArgumentError('aclProvider', `aclProvider.default: ${err.message}`);
    throw err;
  }
  const forPath = provider['forPath'];
  if (forPath !== undefined && typeof forPath !== 'function') {
    throw new InvalidArgumentError('aclProvider', `aclProvider.forPath must be a function, got ${describeValue(forPath)}`);
  }
}

/** The resolver of a client without a provider: the same ACL for every path (see OPEN_ACL). */
export const openAclFor: AclFor = () => Acls.openUnsafe();

/**
 * What a create without `acl` sends when the client's resolver is `openAclFor`: one frozen, validated list
 * shared by every such create (nothing but the encoder reads it), instead of a fresh one to check each time.
 */
export const OPEN_ACL: readonly ACL[] = Object.freeze(Acls.openUnsafe().map((a) => Object.freeze({ perms: a.perms, id: Object.freeze({ ...a.id }) })));

/**
 * The resolver a client keeps: world:anyone ALL without a provider (ZooKeeper's and Curator's default), else
 * the provider's answer for the path, its default when that answer is undefined. Each call returns a fresh
 * array, so a caller mutating it changes nothing for the next create.
 */
export function aclResolver(provider: AclProvider | undefined): AclFor {
  if (provider === undefined) return openAclFor;
  const fallback = provider.default.map((a) => ({ perms: a.perms, id: { scheme: a.id.scheme, id: a.id.id } }));
  const copy = (acl: readonly ACL[]): ACL[] => acl.map((a) => ({ perms: a.perms, id: { ...a.id } }));
  return (path) => {
    const chosen = provider.forPath?.(path);
    return copy(chosen === undefined ? fallback : chosen);
  };
}
