import { startContainerEnsemble } from './container-ensemble.js';
import { dockerUnavailableReason } from './container-runtime.js';
import { startContainerZooKeeper } from './container.js';
import { startLocalEnsemble } from './ensemble.js';
import { ZooKeeperNotInstalledError } from './errors.js';
import { probeJavaRuntime } from './java.js';
import { startLocalZooKeeper } from './local-server.js';

import type { ContainerEnsemble } from './container-ensemble.js';
import type { Ensemble, EnsembleOptions } from './ensemble.js';
import type { Backend, ServerOptions, ZooKeeperServer } from './options.js';

/** The environment variable choosing the backend: local, container or auto. */
export const BACKEND_ENV = 'ZKTS_TESTKIT_BACKEND';

function requestedBackend(options: ServerOptions): Backend {
  const fromEnv = process.env[BACKEND_ENV];
  const backend = options.backend ?? fromEnv ?? 'auto';
  if (backend !== 'local' && backend !== 'container' && backend !== 'auto') {
    throw new TypeError(`unknown testkit backend ${JSON.stringify(backend)} (local, container or auto)`);
  }
  return backend;
}

/** `auto`: local when Java and the jars exist, else a container when a Docker engine answers. */
export async function resolveBackend(options: ServerOptions): Promise<'local' | 'container'> {
  const backend = requestedBackend(options);
  if (backend !== 'auto') return backend;
  const local = probeJavaRuntime();
  if (typeof local !== 'string') return 'local';
  const docker = await dockerUnavailableReason();
  if (docker === undefined) return 'container';
  throw new ZooKeeperNotInstalledError(`${local} (No Docker engine for the container backend either: ${docker})`);
}

/** Starts a standalone ZooKeeper server and resolves once it serves. */
export async function startZooKeeper(options: ServerOptions = {}): Promise<ZooKeeperServer> {
  return (await resolveBackend(options)) === 'local' ? startLocalZooKeeper(options) : startContainerZooKeeper(options);
}

/**
 * Starts an ensemble of `size` members and resolves once every member serves and one leads. With
 * `backend: 'container'` the members run in containers on their own Docker network, and the handle also has
 * the network faults (isolate, partition, pause, heal): see ContainerEnsemble.
 */
export async function startEnsemble(options: EnsembleOptions & { backend: 'container' }): Promise<ContainerEnsemble>;
export async function startEnsemble(options: EnsembleOptions): Promise<Ensemble>;
export async function startEnsemble(options: EnsembleOptions): Promise<Ensemble> {
  return (await resolveBackend(options)) === 'local' ? startLocalEnsemble(options) : startContainerEnsemble(options);
}
