import { startContainerEnsemble } from './container-ensemble.js';
import { dockerUnavailableReason } from './container-runtime.js';
import { startContainerZooKeeper } from './container.js';
import { startLocalEnsemble } from './ensemble.js';
import { EmbeddedZooKeeperServer } from './embedded.js';
import { UnsupportedOptionError, ZooKeeperNotInstalledError } from './errors.js';
import { probeJavaRuntime } from './java.js';
import { startLocalZooKeeper } from './local-server.js';
import { checkBackend, checkObject, checkServerOptions } from './option-checks.js';

import type { ContainerEnsemble } from './container-ensemble.js';
import type { Ensemble, EnsembleOptions } from './ensemble.js';
import type { Backend, ServerOptions, ZooKeeperServer } from './options.js';

/** The environment variable choosing the backend: local, container, embedded or auto. */
export const BACKEND_ENV = 'ZKTS_TESTKIT_BACKEND';

function requestedBackend(options: ServerOptions, where: string): Backend {
  checkObject(where, 'options', options, false);
  checkBackend(where, options.backend);
  if (options.backend !== undefined) return options.backend;
  const fromEnv = process.env[BACKEND_ENV];
  if (fromEnv === undefined || fromEnv === '') return 'auto';
  checkBackend(where, fromEnv, BACKEND_ENV);
  return fromEnv as Backend;
}

/**
 * `auto`: local when Java and the jars exist, else a container when a Docker engine answers. `auto` never picks
 * `embedded`: a test that asks for ZooKeeper gets ZooKeeper unless it says otherwise.
 */
export function resolveBackend(options: ServerOptions): Promise<'local' | 'container' | 'embedded'> {
  return backendFor(options, 'resolveBackend');
}

async function backendFor(options: ServerOptions, where: string): Promise<'local' | 'container' | 'embedded'> {
  const backend = requestedBackend(options, where);
  if (backend !== 'auto') return backend;
  const local = probeJavaRuntime();
  if (typeof local !== 'string') return 'local';
  const docker = await dockerUnavailableReason();
  if (docker === undefined) return 'container';
  throw new ZooKeeperNotInstalledError(
    `${local} (No Docker engine for the container backend either: ${docker}. backend 'embedded' needs neither.)`,
  );
}

/** The options only the embedded backend has, refused by name elsewhere. */
function refuseEmbeddedOnly(options: ServerOptions, backend: string): void {
  for (const option of ['clock', 'dataDir'] as const) {
    if (options[option] !== undefined) {
      throw new UnsupportedOptionError(option, `the option \`${option}\` is for backend 'embedded' only, not '${backend}'`);
    }
  }
}

/**
 * Starts a standalone ZooKeeper server on a free port and resolves once it serves: a real ZooKeeper in a JVM
 * (`backend: 'local'`, the default when Java and ZooKeeper's jars are installed), in a container
 * (`backend: 'container'`), or `@zkts/server` in this process (`backend: 'embedded'`, no Java). The handle stops,
 * kills, restarts and queries it (`fourLetter`); disposing it (`await using`) kills it and deletes its files.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { startZooKeeper } from '@zkts/testkit';
 *
 * await using server = await startZooKeeper({ tickTime: 500 });
 * const zk = await connect(server.connectString);
 * await zk.create('/hello', 'world');
 * console.log((await zk.getData('/hello')).data.toString(), await server.fourLetter('ruok'));
 * await zk.close();
 * // world imok
 * ```
 */
export async function startZooKeeper(options: ServerOptions = {}): Promise<ZooKeeperServer> {
  checkServerOptions('startZooKeeper', options);
  const backend = await backendFor(options, 'startZooKeeper');
  if (backend === 'embedded') return EmbeddedZooKeeperServer.start(options);
  refuseEmbeddedOnly(options, backend);
  return backend === 'local' ? startLocalZooKeeper(options) : startContainerZooKeeper(options);
}

/**
 * Starts an ensemble of `size` members and resolves once every member serves and one leads. With
 * `backend: 'container'` the members run in containers on their own Docker network, and the handle also has
 * the network faults (isolate, partition, pause, heal): see ContainerEnsemble.
 */
export async function startEnsemble(options: EnsembleOptions & { backend: 'container' }): Promise<ContainerEnsemble>;
export async function startEnsemble(options: EnsembleOptions): Promise<Ensemble>;
export async function startEnsemble(options: EnsembleOptions): Promise<Ensemble> {
  checkObject('startEnsemble', 'options', options, false);
  checkServerOptions('startEnsemble', options, ['size']);
  const backend = await backendFor(options, 'startEnsemble');
  if (backend === 'embedded') {
    throw new UnsupportedOptionError('backend', "backend 'embedded' is one standalone server: ensembles need backend 'local' or 'container'");
  }
  refuseEmbeddedOnly(options, backend);
  return backend === 'local' ? startLocalEnsemble(options) : startContainerEnsemble(options);
}
