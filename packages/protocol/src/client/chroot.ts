/**
 * The chroot layer (Java's client/Chroot.java). It sits between the public API and the codec: client paths
 * go out prefixed, server paths come back stripped. The codec never knows about it.
 */
export class Chroot {
  /** '' when there is none. */
  readonly root: string;

  constructor(root: string) {
    this.root = root === '/' ? '' : root;
  }

  /** '/' maps to the chroot itself. */
  toServer(clientPath: string): string {
    if (this.root === '') return clientPath;
    return clientPath === '/' ? this.root : this.root + clientPath;
  }

  /**
   * Strips the chroot. A path outside it (only `/zookeeper/config` and friends can come back that way) is
   * returned unchanged.
   */
  toClient(serverPath: string): string {
    if (this.root === '') return serverPath;
    if (serverPath === this.root) return '/';
    if (serverPath.startsWith(this.root) && serverPath.charCodeAt(this.root.length) === 0x2f) {
      return serverPath.slice(this.root.length);
    }
    return serverPath;
  }
}

/** No chroot: one instance for every client without one (it holds nothing but the root). */
const NO_CHROOT = new Chroot('');

export function chrootOf(root: string): Chroot {
  return root === '' || root === '/' ? NO_CHROOT : new Chroot(root);
}
