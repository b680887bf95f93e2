import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { ServerStartError } from './errors.js';
import { fourLetter, modeOf } from './four-letter.js';
import { javaRuntime } from './java.js';
import { logTail } from './log-tail.js';
import { checkFourLetterWord, checkLineCount, checkPeers, checkPort, checkTimeout } from './option-checks.js';
import { freePorts } from './ports.js';
import { newTag, tagArgs, trackChild, trackTempDir, untrackTempDir } from './processes.js';
import { renderServerJaas } from './auth-config.js';
import { sharedTls } from './tls.js';
import { jvmArgs, renderZooCfg, systemProperties } from './zoo-config.js';

import type { ChildProcess } from 'node:child_process';
import type { ServerOptions, TlsMaterial, ZooKeeperServer } from './options.js';
import type { GeneratedTls } from './tls.js';
import type { QuorumPeer, ServerLayout } from './zoo-config.js';

const STANDALONE_MAIN = 'org.apache.zookeeper.server.ZooKeeperServerMain';
const QUORUM_MAIN = 'org.apache.zookeeper.server.quorum.QuorumPeerMain';
const HOST = '127.0.0.1';
const STOP_GRACE_MS = 15_000;

/** Modes in which `srvr` says the server is serving (read-only only counts when asked for). */
export function servingMode(mode: string | undefined, readOnly: boolean): boolean {
  if (mode === undefined) return false;
  if (mode === 'read-only') return readOnly;
  return ['standalone', 'leader', 'follower', 'observer'].includes(mode);
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.removeListener('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

export interface LocalServerInit {
  options: ServerOptions;
  /** The temp root this server owns (config, data, log, certificates). */
  root: string;
  clientPort: number | undefined;
  securePort: number | undefined;
  tls: GeneratedTls | undefined;
  /** Set for an ensemble member. */
  quorum?: { myid: number; peers: QuorumPeer[] };
}

/** One ZooKeeper JVM on this machine. Created through {@link startZooKeeper} or {@link startEnsemble}. */
export class LocalZooKeeperServer implements ZooKeeperServer {
  readonly host = HOST;
  readonly dataDir: string;
  readonly logFile: string;
  readonly root: string;
  readonly tls?: TlsMaterial;
  /** The `-Dzkts.testkit=` tag of this server's JVM (stable across restarts). */
  readonly tag = newTag();
  readonly myid: number | undefined;
  #clientPort: number | undefined;
  #securePort: number | undefined;
  readonly #options: ServerOptions;
  readonly #generated: GeneratedTls | undefined;
  #peers: QuorumPeer[] | undefined;
  #child: ChildProcess | undefined;
  #disposed = false;

  constructor(init: LocalServerInit) {
    this.#options = init.options;
    this.root = init.root;
    this.dataDir = join(init.root, 'data');
    this.logFile = join(init.root, 'server.log');
    this.#clientPort = init.clientPort;
    this.#securePort = init.securePort;
    this.#generated = init.tls;
    if (init.tls) this.tls = init.tls.material;
    this.myid = init.quorum?.myid;
    this.#peers = init.quorum?.peers;
  }

  /** The client port. */
  get port(): number {
    const port = this.#clientPort ?? this.#securePort;
    if (port === undefined) throw new Error('server has no client port');
    return port;
  }

  /** The TLS port, when the server has one. */
  get securePort(): number | undefined {
    return this.#securePort;
  }

  get connectString(): string {
    return `${this.host}:${this.port}`;
  }

  /** The JVM's pid while it runs. */
  get pid(): number | undefined {
    return this.#child && !exited(this.#child) ? this.#child.pid : undefined;
  }

  /** Whether the JVM is running. */
  get running(): boolean {
    return this.#child !== undefined && !exited(this.#child);
  }

  /** Replaces the ensemble's peer list (used when an ensemble re-picks ports after a bind failure). */
  setPeers(peers: QuorumPeer[], clientPort: number | undefined): void {
    checkPeers('LocalZooKeeperServer.setPeers', 'peers', peers);
    checkPort('LocalZooKeeperServer.setPeers', 'clientPort', clientPort);
    this.#peers = peers;
    this.#clientPort = clientPort;
  }

  /** Changes ports before a (re)try of the first start, when another process took a picked port. */
  setPorts(clientPort: number | undefined, securePort: number | undefined): void {
    checkPort('LocalZooKeeperServer.setPorts', 'clientPort', clientPort);
    checkPort('LocalZooKeeperServer.setPorts', 'securePort', securePort);
    this.#clientPort = clientPort;
    this.#securePort = securePort;
  }

  /** Sends a four-letter word (ruok, srvr, mntr…) and resolves with the answer. */
  fourLetter(cmd: string): Promise<string> {
    try {
      checkFourLetterWord('LocalZooKeeperServer.fourLetter', cmd);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    if (this.#clientPort !== undefined) return fourLetter({ host: this.host, port: this.#clientPort }, cmd);
    if (this.#securePort !== undefined && this.tls) {
      return fourLetter({ host: this.host, port: this.#securePort, tls: this.tls }, cmd);
    }
    return Promise.reject(new Error('server has no client port'));
  }

  /** The last `lines` of the server log, for failure messages. */
  logTail(lines = 40): Promise<string> {
    try {
      checkLineCount('LocalZooKeeperServer.logTail', lines);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return logTail(this.logFile, lines);
  }

  #layout(): ServerLayout {
    const layout: ServerLayout = {
      host: this.host,
      dataDir: this.dataDir,
      clientPort: this.#clientPort,
      securePort: this.#securePort,
    };
    if (this.#generated) {
      layout.keyStore = {
        keyStore: this.#generated.keyStore,
        trustStore: this.#generated.trustStore,
        password: this.#generated.password,
      };
    }
    if (this.#peers) layout.quorum = { peers: this.#peers };
    return layout;
  }

  /** Spawns the JVM without waiting for it to serve. */
  async spawn(): Promise<void> {
    if (this.#disposed) throw new Error('server was disposed');
    if (this.running) return;
    const { java, classpath } = javaRuntime();
    const layout = this.#layout();
    await mkdir(this.dataDir, { recursive: true });
    if (this.myid !== undefined) await writeFile(join(this.dataDir, 'myid'), `${this.myid}\n`);
    const cfg = join(this.root, 'zoo.cfg');
    await writeFile(cfg, renderZooCfg(this.#options, layout));
    const jaas = renderServerJaas(this.#options);
    if (jaas !== undefined) {
      layout.jaasFile = join(this.root, 'jaas.conf');
      await writeFile(layout.jaasFile, jaas);
    }
    const args = [
      ...jvmArgs(this.#options, systemProperties(this.#options, layout)),
      ...tagArgs(this.tag),
      '-cp', classpath,
      this.myid === undefined ? STANDALONE_MAIN : QUORUM_MAIN,
      cfg,
    ];
    // The log file gets the JVM's stdout/stderr (slf4j-simple writes to stderr); appended across restarts.
    const fd = openSync(this.logFile, 'a');
    try {
      const child = spawn(java, args, { cwd: this.root, stdio: ['ignore', fd, fd] });
      trackChild(child);
      // A forgotten server must not keep the test process alive: the exit hook SIGKILLs it instead.
      child.unref();
      child.on('error', () => {
        // Surfaced by waitServing (the process is not running); without a listener it would crash Node.
      });
      this.#child = child;
    } finally {
      closeSync(fd);
    }
  }

  /** Polls `srvr` until the server serves, the JVM exits, or the deadline passes (log tail in the error). */
  async waitServing(timeout = this.#options.startTimeout ?? 60_000): Promise<void> {
    checkTimeout('LocalZooKeeperServer.waitServing', 'timeout', timeout, false);
    const deadline = Date.now() + timeout;
    const readOnly = this.#options.readOnlyMode === true;
    let last = '';
    for (;;) {
      const child = this.#child;
      if (!child || exited(child)) {
        throw new ServerStartError(
          `ZooKeeper ${this.describe()} exited before serving (code ${child?.exitCode ?? '?'}, signal ${child?.signalCode ?? '-'}).\n` +
            `--- ${this.logFile} (tail) ---\n${await this.logTail()}`,
        );
      }
      try {
        last = await this.fourLetter('srvr');
        if (servingMode(modeOf(last), readOnly)) return;
        // 3.8 always allows srvr whatever the whitelist; should another release (ZOOKEEPER_HOME) refuse it,
        // fall back to ruok (imok once the port is up); if ruok is refused too,
        // a whitelist answer still proves the connection factory is up, which is the best we can know.
        if (last.includes('not in the whitelist')) {
          const ruok = await this.fourLetter('ruok');
          if (ruok === 'imok' || ruok.includes('not in the whitelist')) return;
        }
      } catch (error) {
        last = String(error);
      }
      if (Date.now() > deadline) {
        throw new ServerStartError(
          `ZooKeeper ${this.describe()} did not serve within ${timeout} ms (last srvr: ${last.trim().slice(0, 200)}).\n` +
            `--- ${this.logFile} (tail) ---\n${await this.logTail()}`,
        );
      }
      await sleep(100);
    }
  }

  /** A one-line description: ports, data directory, pid. */
  describe(): string {
    const id = this.myid === undefined ? '' : ` member ${this.myid}`;
    return `${this.host}:${this.#clientPort ?? '-'}${this.#securePort === undefined ? '' : ` tls:${this.#securePort}`}${id}`;
  }

  async start(): Promise<void> {
    if (this.running) return;
    await this.spawn();
    await this.waitServing();
  }

  async stop(): Promise<void> {
    const child = this.#child;
    if (!child || exited(child)) return;
    child.kill('SIGTERM');
    if (!(await waitExit(child, STOP_GRACE_MS))) {
      child.kill('SIGKILL');
      await waitExit(child, STOP_GRACE_MS);
    }
  }

  async kill(): Promise<void> {
    const child = this.#child;
    if (!child || exited(child)) return;
    child.kill('SIGKILL');
    await waitExit(child, STOP_GRACE_MS);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Kills the JVM (its data is thrown away anyway) and removes the temp dir. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    await this.kill();
    await rm(this.root, { recursive: true, force: true });
    untrackTempDir(this.root);
  }

  /** SIGKILLs the JVM and deletes its directory. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}

/** Makes a server's temp root (removed on dispose and, as a last resort, at process exit). */
export async function makeRoot(prefix: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  trackTempDir(root);
  return root;
}

async function pickPorts(options: ServerOptions): Promise<{ client: number | undefined; secure: number | undefined }> {
  const wantClient = options.clientPort !== false;
  const wantSecure = options.tls === true;
  const ports = await freePorts(Number(wantClient) + Number(wantSecure));
  return { client: wantClient ? ports[0] : undefined, secure: wantSecure ? ports[wantClient ? 1 : 0] : undefined };
}

const BIND_ATTEMPTS = 3;

/** Starts a standalone server on a local JVM. */
export async function startLocalZooKeeper(options: ServerOptions = {}): Promise<LocalZooKeeperServer> {
  if (options.clientPort === false && options.tls !== true) {
    throw new TypeError('clientPort: false needs tls: true (a server needs at least one port)');
  }
  const { java } = javaRuntime();
  const root = await makeRoot('zkts-zk-');
  try {
    const tls: GeneratedTls | undefined = options.tls ? await sharedTls(java) : undefined;
    const ports = await pickPorts(options);
    const server = new LocalZooKeeperServer({ options, root, clientPort: ports.client, securePort: ports.secure, tls });
    for (let attempt = 1; ; attempt++) {
      try {
        await server.start();
        return server;
      } catch (error) {
        // Ports are picked by binding port 0 and released; a concurrent process may win the race. Retry
        // with fresh ports when that is what happened.
        const tail = await server.logTail(80);
        await server.kill();
        if (attempt >= BIND_ATTEMPTS || !/BindException|Address already in use/.test(tail)) throw error;
        const again = await pickPorts(options);
        server.setPorts(again.client, again.secure);
      }
    }
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    untrackTempDir(root);
    throw error;
  }
}
