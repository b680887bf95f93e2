/**
 * Namespace views (Curator's usingNamespace): `client.namespace('/app')` shares the session, its state and
 * its watches, with every path under `/app`. A view is a chroot over the parent's (chroot.ts, above the codec)
 * plus the namespace node, made on the first request through the view and never checked again (a node
 * deleted afterwards is not recreated, as in Curator). It is made with the parent's `mkdirp` without an `acl`
 * option, so the node gets the ACL the client's aclProvider gives that path. The provider sees every path as the
 * client made with it writes it, a view's with the view's place in front (as Curator's ACLProvider sees
 * namespaced paths): op-context.ts's `under` adds it.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { describeValue } from '../errors/option-keys.js';
import { Chroot } from './chroot.js';
import { validatePath } from './paths.js';

/** The chroot of a view `path` under `parent` (a client path of the parent: nested views add up). */
export function namespaceRoot(parent: Chroot, path: string): Chroot {
  if (typeof path !== 'string') throw new InvalidArgumentError('path', `namespace must be a path string, got ${describeValue(path)}`);
  validatePath(path);
  if (path === '/') throw new InvalidArgumentError('path', `namespace must be below the root (use the client itself), got ${describeValue(path)}`);
  return new Chroot(parent.toServer(path));
}

/**
 * The namespace node, made once: requests through the view wait for the first attempt; a failed attempt
 * fails the requests that waited for it, and the next request tries again.
 */
export function namespaceNode(make: () => Promise<void>): () => Promise<void> | null {
  let done = false;
  let pending: Promise<void> | null = null;
  return () => {
    if (done) return null;
    pending ??= make().then(
      () => {
        done = true;
        pending = null;
      },
      (err: unknown) => {
        pending = null;
        throw err;
      },
    );
    return pending;
  };
}
