/**
 * Barrier: the barrier is up while its node exists; `wait()` returns once it is removed (a data watch, so
 * nothing is left behind when it is already gone).
 */
import { parentPath, type ACL } from '@zkts/protocol';

import {
  aclRule, checkOptions, withAcl,
  checkClientAndPath, checkWait, ensureDir, isNodeExists, isNoNode, openScope, retrying, within, type RecipeClient, type WaitOptions,
} from '../internal/index.js';

/** The ZooKeeper barrier recipe: processes wait while the barrier node exists; whoever set it removes it to let them go. */
export class Barrier {
  readonly client: RecipeClient;
  readonly path: string;

  /** `acl`: the ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  constructor(client: RecipeClient, path: string, options: { acl?: ACL[] } = {}) {
    checkClientAndPath('Barrier', client, path);
    checkOptions('Barrier', options, { acl: aclRule });
    this.client = withAcl(client, options.acl);
    this.path = path;
  }

  /** Raises the barrier (idempotent). */
  async set(): Promise<void> {
    for (;;) {
      try {
        await retrying(this.client, () => this.client.create(this.path, null, { mode: 'persistent' }));
        return;
      } catch (e) {
        if (isNodeExists(e)) return;
        if (!isNoNode(e)) throw e;
        await ensureDir(this.client, parentPath(this.path));
      }
    }
  }

  /** Lowers the barrier, releasing every waiter (idempotent). */
  async remove(): Promise<void> {
    try {
      await retrying(this.client, () => this.client.delete(this.path));
    } catch (e) {
      if (!isNoNode(e)) throw e;
    }
  }

  /** Whether the barrier node exists now. */
  async isSet(): Promise<boolean> {
    return (await retrying(this.client, () => this.client.exists(this.path))) !== null;
  }

  /** Waits until the barrier is down. */
  async wait(options: WaitOptions = {}): Promise<void> {
    checkWait('Barrier.wait', options);
    const scope = openScope(options, `barrier ${this.path}`);
    try {
      for (;;) {
        let watch: Promise<unknown> | undefined;
        try {
          watch = (await within(scope, retrying(this.client, () => this.client.getData(this.path, { watch: true })))).watch;
        } catch (e) {
          if (isNoNode(e)) return;
          throw e;
        }
        if (watch !== undefined) await within(scope, watch);
      }
    } finally {
      scope?.dispose();
    }
  }
}
