import { startLocalZooKeeper } from './local-server.js';
import { startLocalEnsemble } from './ensemble.js';

import type { ServerOptions, ZooKeeperServer } from './options.js';
import type { Ensemble, EnsembleOptions } from './ensemble.js';

/** Starts a standalone ZooKeeper server and resolves once it serves. */
export async function startZooKeeper(options: ServerOptions = {}): Promise<ZooKeeperServer> {
  return startLocalZooKeeper(options);
}

/** Starts an ensemble of `size` members and resolves once every member serves and one leads. */
export async function startEnsemble(options: EnsembleOptions): Promise<Ensemble> {
  return startLocalEnsemble(options);
}
