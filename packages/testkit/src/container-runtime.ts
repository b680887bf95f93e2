/**
 * The Docker side of the container backend: the engine (found by testcontainers, which knows DOCKER_HOST,
 * contexts and the usual sockets; driven through its dockerode client, no reaper image), the ZooKeeper image
 * (official where present or pullable, else the one scripts/zookeeper-image.sh builds from Debian's packages),
 * and reaping. Every container and network the testkit creates carries labels — owner tag `<pid>-<random>`,
 * host name, and the test run's id — so a process exit removes its own (`docker rm -f`, synchronously), the
 * vitest global teardown finds whatever a run left, and the next run removes what a SIGKILLed one left.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { hostname } from 'node:os';

import { ZooKeeperNotInstalledError } from './errors.js';
import { checkString } from './option-checks.js';
import { checkOptionKeys } from './option-keys.js';
import { onExitSync, RUN_ENV } from './processes.js';

import type * as TestcontainersModule from 'testcontainers';

/** The official image; 3.8 to match the Debian server the local backend runs. */
export const ZOOKEEPER_IMAGE = 'zookeeper:3.8';
/** Built from Debian's packages by scripts/zookeeper-image.sh where no registry can be reached. */
export const LOCAL_ZOOKEEPER_IMAGE = 'zkts-local/zookeeper:3.8';
/** Overrides the image for every container server (like the `image` option). */
export const IMAGE_ENV = 'ZKTS_ZOOKEEPER_IMAGE';

export const LABEL_TAG = 'zkts.testkit';
export const LABEL_RUN = 'zkts.testkit.run';
export const LABEL_HOST = 'zkts.testkit.host';

// A type-only import: erased at run time, so the package loads without testcontainers installed.
type Testcontainers = typeof TestcontainersModule;
/** @internal */
export type RuntimeClient = Awaited<ReturnType<Testcontainers['getContainerRuntimeClient']>>;
/** @internal */
export type Dockerode = RuntimeClient['container']['dockerode'];
/** @internal */
export type DockerContainer = ReturnType<Dockerode['getContainer']>;

/** testcontainers is optional: import it only when a container is asked for. */
async function loadTestcontainers(): Promise<Testcontainers> {
  // Its reaper (Ryuk) is an image to pull; the testkit reaps by label itself, and never starts through
  // GenericContainer anyway. Set before the import so nothing it loads thinks otherwise.
  process.env['TESTCONTAINERS_RYUK_DISABLED'] ??= 'true';
  try {
    return await import('testcontainers');
  } catch (error) {
    throw new ZooKeeperNotInstalledError(
      "backend 'container' needs the optional package `testcontainers` (npm install -D testcontainers).",
      { cause: error },
    );
  }
}

let clientPromise: Promise<RuntimeClient> | undefined;

/** The engine's client (cached per process; a failure is not cached). @internal */
export function runtimeClient(): Promise<RuntimeClient> {
  clientPromise ??= loadTestcontainers().then((tc) => tc.getContainerRuntimeClient());
  clientPromise.catch(() => {
    clientPromise = undefined;
  });
  return clientPromise;
}

let dockerProbe: Promise<string | undefined> | undefined;

/** undefined when a Docker engine answers; otherwise why not (cached: the answer does not change in a run). */
export function dockerUnavailableReason(): Promise<string | undefined> {
  dockerProbe ??= runtimeClient().then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  return dockerProbe;
}

/** The engine, or one clear error saying there is none. @internal */
export async function engine(): Promise<RuntimeClient> {
  const unavailable = await dockerUnavailableReason();
  if (unavailable !== undefined) {
    throw new ZooKeeperNotInstalledError(
      `backend 'container' needs a running Docker engine (${unavailable}); on Debian as root \`bash scripts/setup.sh\` ` +
        "starts one; or use backend 'local' with Java and ZooKeeper installed (`sudo apt-get install zookeeper`).",
    );
  }
  return runtimeClient();
}

/** Whether `address` is one of this machine's own (binding to it works; also for a bridge with no carrier). */
function isOwnAddress(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(0, address, () => server.close(() => resolve(true)));
  });
}

export interface EngineEndpoint {
  /** Where clients reach mapped ports. */
  host: string;
  /** Where Docker binds them. */
  bindIp: string;
}

let endpoint: Promise<EngineEndpoint> | undefined;

/**
 * Where mapped ports are reached: loopback (and bound there only) when the engine's host, as testcontainers
 * resolves it, is this machine — `localhost`, or one of its own addresses such as the docker0 gateway it
 * picks when a /.dockerenv makes it think it runs in a container; else that host, with ports bound on all
 * of the engine's interfaces.
 * @internal
 */
export function engineEndpoint(client: RuntimeClient): Promise<EngineEndpoint> {
  endpoint ??= (async () => {
    const host = client.info.containerRuntime.host;
    const local = host === 'localhost' || host === '127.0.0.1' || (/^[\d.]+$/.test(host) && (await isOwnAddress(host)));
    return local ? { host: '127.0.0.1', bindIp: '127.0.0.1' } : { host, bindIp: '0.0.0.0' };
  })();
  return endpoint;
}

async function imageExists(docker: Dockerode, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect();
    return true;
  } catch {
    return false;
  }
}

async function pull(docker: Dockerode, image: string): Promise<void> {
  const stream = await docker.pull(image);
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve()));
  });
}

const resolvedImages = new Map<string, Promise<string>>();

/**
 * The image to run: the asked one (option or $ZKTS_ZOOKEEPER_IMAGE; pulled when absent), else the official
 * one when present, else the locally built one when present, else the official one pulled now.
 * @internal
 */
export function zookeeperImage(client: RuntimeClient, asked: string | undefined): Promise<string> {
  const key = asked ?? process.env[IMAGE_ENV] ?? '';
  let found = resolvedImages.get(key);
  if (!found) {
    found = findImage(client.container.dockerode, key || undefined);
    resolvedImages.set(key, found);
    found.catch(() => resolvedImages.delete(key));
  }
  return found;
}

async function findImage(docker: Dockerode, asked: string | undefined): Promise<string> {
  if (asked !== undefined) {
    if (!(await imageExists(docker, asked))) await pull(docker, asked);
    return asked;
  }
  if (await imageExists(docker, ZOOKEEPER_IMAGE)) return ZOOKEEPER_IMAGE;
  if (await imageExists(docker, LOCAL_ZOOKEEPER_IMAGE)) return LOCAL_ZOOKEEPER_IMAGE;
  try {
    await pull(docker, ZOOKEEPER_IMAGE);
    return ZOOKEEPER_IMAGE;
  } catch (error) {
    throw new ZooKeeperNotInstalledError(
      `no ZooKeeper image: ${ZOOKEEPER_IMAGE} cannot be pulled (${error instanceof Error ? error.message : String(error)}) ` +
        `and ${LOCAL_ZOOKEEPER_IMAGE} is not built; build it from Debian's packages with \`bash scripts/zookeeper-image.sh\` ` +
        `(root), or set ${IMAGE_ENV} to an image you have.`,
      { cause: error },
    );
  }
}

/** The labels of everything the testkit creates under this owner tag. */
export function testkitLabels(tag: string): Record<string, string> {
  const labels: Record<string, string> = { [LABEL_TAG]: tag, [LABEL_HOST]: hostname() };
  const run = process.env[RUN_ENV];
  if (run) labels[LABEL_RUN] = run;
  return labels;
}

// What this process created and has not removed yet: removed by the exit hook if a test forgets.
const ownContainers = new Set<string>();
const ownNetworks = new Set<string>();
let exitHooked = false;

function removeOwnSync(): void {
  const docker = (args: string[]): void => {
    spawnSync('docker', args, { stdio: 'ignore', timeout: 30_000 });
  };
  if (ownContainers.size > 0) docker(['rm', '--force', '--volumes', ...ownContainers]);
  for (const network of ownNetworks) docker(['network', 'rm', network]);
  ownContainers.clear();
  ownNetworks.clear();
}

function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  onExitSync(removeOwnSync);
}

export function trackContainer(id: string): void {
  hookExit();
  ownContainers.add(id);
}
export function untrackContainer(id: string): void {
  ownContainers.delete(id);
}
export function trackNetwork(id: string): void {
  hookExit();
  ownNetworks.add(id);
}
export function untrackNetwork(id: string): void {
  ownNetworks.delete(id);
}

// What the listings give (dockerode's overloads type the promise form loosely).
interface Listed {
  Id: string;
  Labels: Record<string, string> | null | undefined;
  State?: string;
}

/** A container the testkit started, as its labels describe it (for reaping). */
export interface TaggedContainer {
  id: string;
  tag: string;
  run: string | undefined;
  state: string;
}

/** Every container the testkit created on this host (any state), from the engine's labels. */
export async function listTaggedContainers(): Promise<TaggedContainer[]> {
  if ((await dockerUnavailableReason()) !== undefined) return [];
  const docker = (await runtimeClient()).container.dockerode;
  const found = (await docker.listContainers({ all: true, filters: { label: [LABEL_TAG, `${LABEL_HOST}=${hostname()}`] } })) as Listed[];
  return found.map((c) => ({ id: c.Id, tag: c.Labels?.[LABEL_TAG] ?? '', run: c.Labels?.[LABEL_RUN], state: c.State ?? '' }));
}

function ownerAlive(tag: string): boolean {
  const owner = Number(tag.split('-')[0]);
  if (!Number.isInteger(owner) || owner <= 0) return false;
  try {
    process.kill(owner, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the testkit's containers and networks on this host: by default those whose owning Node process is
 * gone (leftovers of a SIGKILLed run; a live owner's are never touched), or with `run`, every one of that test
 * run. Returns the removed containers' ids. Nothing (and no error) without a Docker engine.
 */
export async function reapContainers(select: { run?: string } = {}): Promise<string[]> {
  checkOptionKeys(select, ['run'], 'reapContainers');
  checkString('reapContainers', 'run', select.run);
  if ((await dockerUnavailableReason()) !== undefined) return [];
  const doomed = (labels: Record<string, string>): boolean =>
    select.run !== undefined ? labels[LABEL_RUN] === select.run : !ownerAlive(labels[LABEL_TAG] ?? '');
  const docker = (await runtimeClient()).container.dockerode;
  const filters = { label: [LABEL_TAG, `${LABEL_HOST}=${hostname()}`] };
  const containers = ((await docker.listContainers({ all: true, filters })) as Listed[]).filter((c) => doomed(c.Labels ?? {}));
  await Promise.all(containers.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined)));
  const networks = ((await docker.listNetworks({ filters })) as Listed[]).filter((n) => doomed(n.Labels ?? {}));
  await Promise.all(networks.map((n) => docker.getNetwork(n.Id).remove().catch(() => undefined)));
  return containers.map((c) => c.Id);
}
