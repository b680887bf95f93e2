/**
 * One ZooKeeper server in a Docker container: the container backend's counterpart of LocalZooKeeperServer,
 * with the same contract (stop/start/restart keep data and ports, kill is a SIGKILL, TLS port, four-letter
 * words). The testkit writes its zoo.cfg and launcher into the container (container-launch.ts) and runs the
 * server's main class, so any ZooKeeper image works. The client (and TLS) ports are mapped to fixed host
 * ports picked once, so restarts keep them. Ensemble members also sit at a fixed address on their network.
 */
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

import { CONTAINER_CLIENT_PORT, CONTAINER_ROOT, CONTAINER_SECURE_PORT, containerFiles, demuxDockerLog, tarArchive } from './container-launch.js';
import { engine, engineEndpoint, testkitLabels, trackContainer, untrackContainer, zookeeperImage } from './container-runtime.js';
import { ServerStartError, ZooKeeperNotInstalledError } from './errors.js';
import { fourLetter, modeOf } from './four-letter.js';
import { probeJavaRuntime } from './java.js';
import { checkFourLetterWord, checkLineCount, checkTimeout } from './option-checks.js';
import { servingMode } from './local-server.js';
import { freePorts } from './ports.js';
import { newTag } from './processes.js';
import { sharedTls } from './tls.js';

import type { ContainerServerPlan, ContainerTls } from './container-launch.js';
import type { DockerContainer, EngineEndpoint, RuntimeClient } from './container-runtime.js';
import type { ServerOptions, TlsMaterial, ZooKeeperServer } from './options.js';

const STOP_GRACE_S = 15;
const BIND_ATTEMPTS = 3;

/** Docker answers 304 "not modified" / 409 "conflict" when a container is already in the asked state. */
function ignoreSameState(error: unknown): void {
  const status = (error as { statusCode?: number }).statusCode;
  if (status === 304 || status === 409) return;
  throw error;
}

function isBindFailure(error: unknown): boolean {
  return /port is already allocated|address already in use|bind/i.test(String(error));
}

/** @internal */
export interface ContainerServerInit {
  client: RuntimeClient;
  /** Where mapped ports are reached and bound (engineEndpoint). */
  endpoint: EngineEndpoint;
  image: string;
  options: ServerOptions;
  plan: ContainerServerPlan;
  /** The owner tag (container label); an ensemble's members share the ensemble's. */
  tag: string;
  /** An ensemble member's network and fixed address on it. */
  network?: { name: string; ip: string };
  /** Called after every (re)start once the container runs: ensembles re-apply their network faults. */
  onStarted?: (server: ContainerZooKeeperServer) => Promise<void>;
}

/** A ZooKeeper server in a container. Created through startZooKeeper / startEnsemble with backend 'container'. */
export class ContainerZooKeeperServer implements ZooKeeperServer {
  readonly host: string;
  /** Inside the container. */
  readonly dataDir = `${CONTAINER_ROOT}/data`;
  /** Also the container's `zkts.testkit` label. */
  readonly tag: string;
  readonly image: string;
  readonly tls?: TlsMaterial;
  readonly myid: number | undefined;
  /** The member's address on its ensemble network (undefined for a standalone server). */
  readonly ip: string | undefined;
  readonly #init: ContainerServerInit;
  readonly #bindIp: string;
  #container: DockerContainer | undefined;
  #clientPort: number | undefined;
  #securePort: number | undefined;
  #running = false;
  #paused = false;
  #everStarted = false;
  #disposed = false;

/** @internal */
  constructor(init: ContainerServerInit, tls?: TlsMaterial) {
    this.#init = init;
    this.tag = init.tag;
    this.image = init.image;
    this.myid = init.plan.quorum?.myid;
    this.ip = init.network?.ip;
    this.host = init.endpoint.host;
    this.#bindIp = init.endpoint.bindIp;
    if (tls) this.tls = tls;
  }

  /** The mapped client port (plain, else the secure one). */
  get port(): number {
    const port = this.#clientPort ?? this.#securePort;
    if (port === undefined) throw new Error('container server has not been created');
    return port;
  }
  /** The mapped TLS port, when the server has one. */
  get securePort(): number | undefined {
    return this.#securePort;
  }
  get connectString(): string {
    return `${this.host}:${this.port}`;
  }
  /** The container's id (undefined before the first start). */
  get containerId(): string | undefined {
    return this.#container?.id;
  }
  /** Whether the container runs (as far as the testkit's own start/stop/kill know). */
  get running(): boolean {
    return this.#running;
  }
  /** Whether the container is frozen (pause()). */
  get paused(): boolean {
    return this.#paused;
  }

  fourLetter(cmd: string, timeout?: number): Promise<string> {
    try {
      checkFourLetterWord('ContainerZooKeeperServer.fourLetter', cmd);
      checkTimeout('ContainerZooKeeperServer.fourLetter', 'timeout', timeout);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    if (this.#clientPort !== undefined) return fourLetter({ host: this.host, port: this.#clientPort, ...(timeout ? { timeout } : {}) }, cmd);
    if (this.#securePort !== undefined && this.tls) {
      return fourLetter({ host: this.host, port: this.#securePort, tls: this.tls, ...(timeout ? { timeout } : {}) }, cmd);
    }
    return Promise.reject(new Error('server has no client port'));
  }

  /** The last lines of the server's output (the container's log). */
  async logTail(lines = 40): Promise<string> {
    checkLineCount('ContainerZooKeeperServer.logTail', lines);
    if (!this.#container) return '';
    try {
      const raw = await this.#container.logs({ stdout: true, stderr: true, tail: lines, follow: false });
      return demuxDockerLog(Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw)));
    } catch (error) {
      return `(no log: ${String(error)})`;
    }
  }

  /** A short name for logs and test titles: image, container and ports. */
  describe(): string {
    const id = this.myid === undefined ? '' : ` member ${this.myid}`;
    return `${this.host}:${this.#clientPort ?? '-'}${this.#securePort === undefined ? '' : ` tls:${this.#securePort}`}${id} (container ${this.containerId?.slice(0, 12) ?? '-'}, ${this.image})`;
  }

  /** The container's init pid on this host while it runs (network faults enter its namespace). */
  async pid(): Promise<number | undefined> {
    if (!this.#container) return undefined;
    const info = await this.#container.inspect();
    return info.State.Running ? info.State.Pid : undefined;
  }

  async #create(): Promise<void> {
    const { client, image, options, plan, network } = this.#init;
    const wanted = Number(plan.plainPort) + Number(plan.tls !== undefined);
    const ports = await freePorts(wanted);
    this.#clientPort = plan.plainPort ? ports[0] : undefined;
    this.#securePort = plan.tls ? ports[plan.plainPort ? 1 : 0] : undefined;
    const exposed: Record<string, object> = {};
    const bindings: Record<string, { HostIp: string; HostPort: string }[]> = {};
    if (this.#clientPort !== undefined) {
      exposed[`${CONTAINER_CLIENT_PORT}/tcp`] = {};
      bindings[`${CONTAINER_CLIENT_PORT}/tcp`] = [{ HostIp: this.#bindIp, HostPort: String(this.#clientPort) }];
    }
    if (this.#securePort !== undefined) {
      exposed[`${CONTAINER_SECURE_PORT}/tcp`] = {};
      bindings[`${CONTAINER_SECURE_PORT}/tcp`] = [{ HostIp: this.#bindIp, HostPort: String(this.#securePort) }];
    }
    const docker = client.container.dockerode;
    const container = await docker.createContainer({
      Image: image,
      Entrypoint: ['/bin/sh'],
      Cmd: [`${CONTAINER_ROOT}/run.sh`],
      ...(this.myid === undefined ? {} : { Hostname: `zk${this.myid}` }),
      Labels: testkitLabels(this.tag),
      ExposedPorts: exposed,
      HostConfig: { PortBindings: bindings, NetworkMode: network?.name ?? 'bridge' },
      ...(network ? { NetworkingConfig: { EndpointsConfig: { [network.name]: { IPAMConfig: { IPv4Address: network.ip } } } } } : {}),
    });
    trackContainer(container.id);
    this.#container = container;
    await container.putArchive(tarArchive(containerFiles(options, plan)), { path: '/' });
  }

  async #removeContainer(): Promise<void> {
    const container = this.#container;
    if (!container) return;
    this.#container = undefined;
    this.#running = false;
    this.#paused = false;
    await container.remove({ force: true, v: true }).catch(() => undefined);
    untrackContainer(container.id);
  }

  /** Starts the container without waiting for ZooKeeper to serve; the first call creates it (retrying taken ports). */
  async spawn(): Promise<void> {
    if (this.#disposed) throw new Error('server was disposed');
    for (let attempt = 1; ; attempt++) {
      if (!this.#container) await this.#create();
      try {
        await this.#container?.start().catch(ignoreSameState);
        this.#running = true;
        break;
      } catch (error) {
        // The host port was picked free but taken before Docker bound it: a new container with new ports
        // (only before the first start succeeded: after that the ports are the server's for good).
        if (attempt >= BIND_ATTEMPTS || !isBindFailure(error) || this.#everStarted) throw error;
        await this.#removeContainer();
      }
    }
    this.#everStarted = true;
    await this.#init.onStarted?.(this);
  }

  /** Polls `srvr` until the server serves, the container exits, or the deadline passes (log tail in the error). */
  async waitServing(timeout = this.#init.options.startTimeout ?? 120_000): Promise<void> {
    checkTimeout('ContainerZooKeeperServer.waitServing', 'timeout', timeout, false);
    const deadline = Date.now() + timeout;
    const readOnly = this.#init.options.readOnlyMode === true;
    let last = '';
    for (let round = 0; ; round++) {
      if (round % 10 === 0 && this.#container) {
        const state = (await this.#container.inspect()).State;
        if (!state.Running) {
          this.#running = false;
          throw new ServerStartError(
            `ZooKeeper ${this.describe()} exited before serving (code ${state.ExitCode}${state.OOMKilled ? ', OOM-killed' : ''}).\n` +
              `--- container log (tail) ---\n${await this.logTail()}`,
          );
        }
      }
      try {
        last = await this.fourLetter('srvr', 3000);
        if (servingMode(modeOf(last), readOnly)) return;
        if (last.includes('not in the whitelist') && (await this.fourLetter('ruok', 3000)) !== '') return;
      } catch (error) {
        last = String(error);
      }
      if (Date.now() > deadline) {
        throw new ServerStartError(
          `ZooKeeper ${this.describe()} did not serve within ${timeout} ms (last srvr: ${last.trim().slice(0, 200)}).\n` +
            `--- container log (tail) ---\n${await this.logTail()}`,
        );
      }
      await sleep(100);
    }
  }

  async start(): Promise<void> {
    // No-op while it runs — as the engine says: a JVM that died by itself leaves a stopped container.
    if (this.#running && this.#container && (await this.#container.inspect()).State.Running) return;
    this.#running = false;
    await this.spawn();
    await this.waitServing();
  }

  /** Graceful: SIGTERM to the JVM (PID 1), SIGKILL after 15 s. Data, config and ports are kept. */
  async stop(): Promise<void> {
    if (!this.#container) return;
    if (this.#paused) await this.unpause();
    await this.#container.stop({ t: STOP_GRACE_S }).catch(ignoreSameState);
    this.#running = false;
  }

  /** SIGKILL (a crash); resolves once the container has stopped. */
  async kill(): Promise<void> {
    if (!this.#container) return;
    await this.#container.kill({ signal: 'SIGKILL' }).catch(ignoreSameState);
    await this.#container.wait().catch(() => undefined);
    this.#running = false;
    this.#paused = false;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Freezes every process of the container (docker pause, the cgroup freezer): a JVM in a long GC pause. */
  async pause(): Promise<void> {
    if (!this.#container || !this.#running || this.#paused) return;
    await this.#container.pause().catch(ignoreSameState);
    this.#paused = true;
  }

  /** Thaws a paused container. */
  async unpause(): Promise<void> {
    if (!this.#container || !this.#paused) return;
    await this.#container.unpause().catch(ignoreSameState);
    this.#paused = false;
  }

  /** Removes the container (and its data). */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    await this.#removeContainer();
  }

  /** Removes the container and its data. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}

/** The local backend's throw-away CA and certificates, as bytes for the container (generated with this host's openssl/keytool). */
export async function containerTls(): Promise<{ stores: ContainerTls; material: TlsMaterial }> {
  const runtime = probeJavaRuntime();
  const java = typeof runtime === 'string' ? 'java' : runtime.java;
  try {
    const generated = await sharedTls(java);
    const [keyStore, trustStore] = await Promise.all([readFile(generated.keyStore), readFile(generated.trustStore)]);
    return { stores: { keyStore, trustStore, password: generated.password }, material: generated.material };
  } catch (error) {
    throw new ZooKeeperNotInstalledError('TLS container servers need `openssl` and the JDK `keytool` on this machine to make their certificates.', { cause: error });
  }
}

/** Starts a standalone server in a container and resolves once it serves. */
export async function startContainerZooKeeper(options: ServerOptions = {}): Promise<ContainerZooKeeperServer> {
  if (options.sasl !== undefined || options.enforceAuth !== undefined || options.x509Auth === true) {
    // JAAS files, a KDC and client-certificate auth are written for the local backend only.
    throw new TypeError("backend 'container' does not support sasl / enforceAuth / x509Auth yet; use backend 'local'");
  }
  if (options.clientPort === false && options.tls !== true) {
    throw new TypeError('clientPort: false needs tls: true (a server needs at least one port)');
  }
  const client = await engine();
  const image = await zookeeperImage(client, options.image);
  const tls = options.tls ? await containerTls() : undefined;
  const plan: ContainerServerPlan = { plainPort: options.clientPort !== false, tls: tls?.stores };
  const endpoint = await engineEndpoint(client);
  const server = new ContainerZooKeeperServer({ client, endpoint, image, options, plan, tag: newTag() }, tls?.material);
  try {
    await server.start();
  } catch (error) {
    await server.dispose();
    throw error;
  }
  return server;
}
