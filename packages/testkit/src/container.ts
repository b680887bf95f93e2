import { setTimeout as sleep } from 'node:timers/promises';

import { digestCredential } from './digest.js';
import { ServerStartError, ZooKeeperNotInstalledError } from './errors.js';
import { fourLetter, modeOf } from './four-letter.js';
import { freePort } from './ports.js';
import { newTag } from './processes.js';

import type * as TestcontainersModule from 'testcontainers';
import type { ServerOptions, ZooKeeperServer } from './options.js';

/** The official image; 3.8 to match the Debian server the local backend runs. */
export const ZOOKEEPER_IMAGE = 'zookeeper:3.8';
const CLIENT_PORT = 2181;

// A type-only import: erased at run time, so the package loads without testcontainers installed.
type Testcontainers = typeof TestcontainersModule;
type Started = Awaited<ReturnType<InstanceType<Testcontainers['GenericContainer']>['start']>>;

/** testcontainers is optional: import it only when a container is asked for. */
async function loadTestcontainers(): Promise<Testcontainers> {
  try {
    return await import('testcontainers');
  } catch (error) {
    throw new ZooKeeperNotInstalledError(
      "backend 'container' needs the optional package `testcontainers` (npm install -D testcontainers).",
      { cause: error },
    );
  }
}

let dockerProbe: Promise<string | undefined> | undefined;

/** undefined when a Docker engine answers; otherwise why not (cached: the answer does not change in a run). */
export function dockerUnavailableReason(): Promise<string | undefined> {
  dockerProbe ??= (async () => {
    try {
      const tc = await loadTestcontainers();
      await tc.getContainerRuntimeClient();
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  })();
  return dockerProbe;
}

/** The image's entrypoint reads these: zoo.cfg keys via ZOO_* and ZOO_CFG_EXTRA, JVM flags via JVMFLAGS. */
export function containerEnvironment(options: ServerOptions): Record<string, string> {
  const extra: string[] = [];
  if (options.minSessionTimeout !== undefined) extra.push(`minSessionTimeout=${options.minSessionTimeout}`);
  if (options.maxSessionTimeout !== undefined) extra.push(`maxSessionTimeout=${options.maxSessionTimeout}`);
  for (const [key, value] of Object.entries(options.config ?? {})) extra.push(`${key}=${String(value)}`);
  const props: string[] = [`-Xmx${options.heap ?? '256m'}`, '-Dzookeeper.forceSync=no'];
  if (options.extendedTypesEnabled) props.push('-Dzookeeper.extendedTypesEnabled=true');
  if (options.containerCheckIntervalMs !== undefined) {
    props.push(`-Dznode.container.checkIntervalMs=${options.containerCheckIntervalMs}`);
  }
  if (options.readOnlyMode) props.push('-Dreadonlymode.enabled=true');
  if (options.superPassword !== undefined) {
    props.push(`-Dzookeeper.DigestAuthenticationProvider.superDigest=${digestCredential('super', options.superPassword)}`);
  }
  for (const [key, value] of Object.entries(options.systemProperties ?? {})) props.push(`-D${key}=${String(value)}`);
  const env: Record<string, string> = {
    ZOO_TICK_TIME: String(options.tickTime ?? 500),
    ZOO_4LW_COMMANDS_WHITELIST: options.fourLetterWhitelist ?? '*',
    ZOO_ADMINSERVER_ENABLED: 'false',
    ZOO_MAX_CLIENT_CNXNS: '0',
    JVMFLAGS: [...props, ...(options.jvmArgs ?? [])].join(' '),
  };
  if (extra.length > 0) env['ZOO_CFG_EXTRA'] = extra.join(' ');
  return env;
}

/** A standalone server in a Docker container; its host port is fixed so restarts keep it. */
class ContainerZooKeeperServer implements ZooKeeperServer {
  readonly host: string;
  readonly port: number;
  /** Inside the container (the image's data volume). */
  readonly dataDir = '/data';
  /** Also the container's `zkts.testkit` label. */
  readonly tag: string;
  readonly #started: Started;
  readonly #timeout: number;
  #disposed = false;

  constructor(started: Started, port: number, timeout: number, tag: string) {
    this.#started = started;
    this.tag = tag;
    this.host = started.getHost();
    this.port = port;
    this.#timeout = timeout;
  }

  get connectString(): string {
    return `${this.host}:${this.port}`;
  }

  /** The Docker API handle (dockerode) of this container. */
  async #docker(): Promise<{ start(): Promise<unknown>; stop(o: { t: number }): Promise<unknown>; kill(o: { signal: string }): Promise<unknown> }> {
    const tc = await loadTestcontainers();
    const client = await tc.getContainerRuntimeClient();
    return client.container.getById(this.#started.getId());
  }

  fourLetter(cmd: string): Promise<string> {
    return fourLetter({ host: this.host, port: this.port }, cmd);
  }

  async waitServing(): Promise<void> {
    const deadline = Date.now() + this.#timeout;
    let last = '';
    while (Date.now() < deadline) {
      last = await this.fourLetter('srvr').catch((error: unknown) => String(error));
      if (modeOf(last) !== undefined) return;
      await sleep(200);
    }
    throw new ServerStartError(`ZooKeeper container ${this.#started.getId().slice(0, 12)} did not serve within ${this.#timeout} ms (last srvr: ${last.slice(0, 200)})`);
  }

  async stop(): Promise<void> {
    await (await this.#docker()).stop({ t: 10 }).catch(ignoreNotRunning);
  }

  async kill(): Promise<void> {
    await (await this.#docker()).kill({ signal: 'SIGKILL' }).catch(ignoreNotRunning);
  }

  async start(): Promise<void> {
    await (await this.#docker()).start().catch(ignoreNotRunning);
    await this.waitServing();
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    await this.#started.stop({ timeout: 0, remove: true, removeVolumes: true }).catch(() => undefined);
  }
}

/** Docker answers 304 "not modified" when a container is already in the asked state. */
function ignoreNotRunning(error: unknown): void {
  const status = (error as { statusCode?: number }).statusCode;
  if (status === 304 || status === 409) return;
  throw error;
}

export async function startContainerZooKeeper(options: ServerOptions = {}): Promise<ZooKeeperServer> {
  if (options.tls || options.clientPort === false || options.sasl || options.enforceAuth || options.x509Auth) {
    throw new TypeError("backend 'container' does not support tls / clientPort: false / sasl / enforceAuth / x509Auth; use backend 'local'");
  }
  const unavailable = await dockerUnavailableReason();
  if (unavailable !== undefined) {
    throw new ZooKeeperNotInstalledError(
      `backend 'container' needs a running Docker engine (${unavailable}); or use backend 'local' with Java and ZooKeeper installed (\`sudo apt-get install zookeeper\` or ZOOKEEPER_HOME).`,
    );
  }
  const tc = await loadTestcontainers();
  const hostPort = await freePort();
  const timeout = options.startTimeout ?? 120_000;
  const tag = newTag();
  const started = await new tc.GenericContainer(ZOOKEEPER_IMAGE)
    .withExposedPorts({ container: CLIENT_PORT, host: hostPort })
    .withEnvironment(containerEnvironment(options))
    .withLabels({ 'zkts.testkit': tag })
    .withWaitStrategy(tc.Wait.forListeningPorts())
    .withStartupTimeout(timeout)
    .start();
  const server = new ContainerZooKeeperServer(started, hostPort, timeout, tag);
  try {
    await server.waitServing();
  } catch (error) {
    await server[Symbol.asyncDispose]();
    throw error;
  }
  return server;
}
