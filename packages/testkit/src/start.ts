import { startLocalZooKeeper } from './local-server.js';

import type { ServerOptions, ZooKeeperServer } from './options.js';

/** Starts a standalone ZooKeeper server and resolves once it serves. */
export async function startZooKeeper(options: ServerOptions = {}): Promise<ZooKeeperServer> {
  return startLocalZooKeeper(options);
}
