/**
 * What a recipe's own options add to the client-wide defaults: the `acl` of every node the recipe creates (over
 * the client's aclProvider, which covers every create that names no ACL), and the `lostOn` policy (over the
 * client's recipeErrorPolicy, over the recipe's own default).
 */
import type { ACL, Op } from '@zkts/protocol';

import type { RecipeClient } from './recipe-client.js';
import type { Rule } from './validate.js';

type LostOnPolicy = 'expired' | 'suspended';

/** The policy a recipe follows: its own option, else the client's recipeErrorPolicy, else the recipe's default. */
export function lostOnFor<P extends LostOnPolicy>(client: RecipeClient, own: P | undefined, fallback: P): P {
  return own ?? (client.recipeErrorPolicy as P | undefined) ?? fallback;
}

/** An ACL list the server would take: a non-empty array of `{ perms: 0..31, id: { scheme, id } }`. */
export const aclRule: Rule = {
  expect: 'a non-empty ACL list ({ perms: 0..31, id: { scheme, id } }[])',
  test: (v) =>
    Array.isArray(v) && v.length > 0 && v.every((a: unknown) => {
      const e = a as Partial<ACL> | null;
      return typeof e === 'object' && e !== null && Number.isInteger(e.perms) && (e.perms as number) >= 0 && (e.perms as number) <= 31 &&
        typeof e.id?.scheme === 'string' && e.id.scheme !== '' && typeof e.id.id === 'string';
    }),
};

/**
 * The client a recipe with an `acl` option talks through: the same client, whose creates and multi create ops
 * get `acl` when they name none. A Proxy rather than a wrapper class so that every
 * other member (getters, methods added later) is the client's own, bound to it.
 */
export function withAcl<C extends RecipeClient>(client: C, acl: readonly ACL[] | undefined): C {
  if (acl === undefined) return client;
  const copy = (): ACL[] => acl.map((a) => ({ perms: a.perms, id: { ...a.id } }));
  const create: RecipeClient['create'] = (path, data, options) => client.create(path, data, { ...options, acl: options?.acl ?? copy() });
  const multi: RecipeClient['multi'] = (ops, options) =>
    client.multi(ops.map((op): Op => (op.op === 'create' && op.acl === undefined ? { ...op, acl: copy() } : op)), options);
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'create') return create;
      if (prop === 'multi') return multi;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
