/**
 * The embedded backend: @zkts/server, a ZooKeeper 3.8 standalone server in TypeScript, in this process. No Java,
 * no Docker, a start in milliseconds. It is loaded with a dynamic import, and only when asked for: the testkit
 * declares no dependency on it (a package edge testkit → server would close a cycle with the packages whose tests
 * use the testkit), so a project installs `@zkts/server` beside the testkit, as it does testcontainers for the
 * container backend. The types below are the small part of its surface the backend uses, matched structurally.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { digestCredential } from './digest.js';
import { UnsupportedOptionError, ZooKeeperNotInstalledError } from './errors.js';
import { fourLetter } from './four-letter.js';
import { checkFourLetterWord, checkObject, checkServerOptions } from './option-checks.js';

import type { EmbeddedClock, ServerOptions, ZooKeeperServer } from './options.js';

/** What the embedded backend passes to @zkts/server's startServer. @internal */
export interface EmbeddedStartOptions {
  port: number;
  host: string;
  tickTime: number;
  minSessionTimeout?: number;
  maxSessionTimeout?: number;
  superDigest?: string;
  extendedTypesEnabled?: boolean;
  containerCheckIntervalMs?: number;
  clock?: EmbeddedClock;
  dataDir?: string;
  fourLetterWords?: readonly string[];
}

/** The running server, as the backend uses it. @internal */
export interface EmbeddedServerHandle {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** @zkts/server's entry, as the backend uses it. @internal */
export interface EmbeddedServerModule {
  startServer(options: EmbeddedStartOptions): Promise<EmbeddedServerHandle>;
}

const SERVER_PACKAGE = '@zkts/server';
const HOST = '127.0.0.1';

/**
 * The options an in-process standalone server has no meaning for (a JVM, a container, an ensemble) or does not
 * offer yet; each is refused by name rather than ignored.
 */
const REFUSED = [
  'image', 'heap', 'logLevel', 'config', 'systemProperties', 'jvmArgs', 'reconfigEnabled', 'readOnlyMode',
  'tls', 'clientPort', 'sasl', 'enforceAuth', 'x509Auth',
] as const satisfies readonly (keyof ServerOptions)[];

/** Throws UnsupportedOptionError for the first option the embedded backend cannot honour. @internal */
export function refuseEmbeddedOptions(options: ServerOptions): void {
  for (const option of REFUSED) {
    if (options[option] !== undefined) {
      throw new UnsupportedOptionError(option, `backend 'embedded' does not support the option \`${option}\`: use backend 'local' or 'container'`);
    }
  }
}

function isServerModule(value: unknown): value is EmbeddedServerModule {
  return typeof value === 'object' && value !== null && typeof (value as { startServer?: unknown }).startServer === 'function';
}

let loaded: Promise<EmbeddedServerModule> | undefined;

/**
 * Imports @zkts/server: as the testkit sees it, else as the project in the working directory sees it (a strict
 * installer such as pnpm links only declared dependencies next to the testkit). @internal
 */
export function loadEmbeddedServer(): Promise<EmbeddedServerModule> {
  loaded ??= (async () => {
    let module: unknown;
    try {
      module = await import(SERVER_PACKAGE);
    } catch (first) {
      try {
        const resolved = createRequire(join(process.cwd(), 'package.json')).resolve(SERVER_PACKAGE);
        module = await import(pathToFileURL(resolved).href);
      } catch {
        throw new ZooKeeperNotInstalledError(
          "backend 'embedded' needs the package `@zkts/server` installed beside the testkit (npm install -D @zkts/server).",
          { cause: first },
        );
      }
    }
    if (!isServerModule(module)) throw new ZooKeeperNotInstalledError('`@zkts/server` has no startServer export');
    return module;
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/**
 * A `@zkts/server` in this process, behind the testkit's handle: what `startZooKeeper({ backend: 'embedded' })`
 * resolves with, for tests that need no Java. `stop`, `kill` and `restart` close it (every connection dropped at
 * once: in-process there is no gentler or harsher way to end it); `start` listens again on the same port. Without
 * a `dataDir` the data lives in memory and goes with the server: `start` brings back an empty tree, as a ZooKeeper
 * whose disk was wiped. A `clock` (e.g. a {@link ManualClock}) drives its session expiry.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { startZooKeeper } from '@zkts/testkit';
 *
 * await using server = await startZooKeeper({ backend: 'embedded' }); // no Java: @zkts/server in this process
 * const zk = await connect(server.connectString);
 * await zk.create('/hello', 'world');
 * console.log((await zk.getData('/hello')).data.toString(), 'in memory:', server.dataDir === '');
 * await zk.close();
 * // world in memory: true
 * ```
 */
export class EmbeddedZooKeeperServer implements ZooKeeperServer {
  readonly host = HOST;
  /** The data directory, or `''` when the data lives in memory only. */
  readonly dataDir: string;
  readonly #module: EmbeddedServerModule;
  readonly #options: EmbeddedStartOptions;
  #server: EmbeddedServerHandle | undefined;
  #port: number;
  #transition: Promise<void> = Promise.resolve();

  private constructor(module: EmbeddedServerModule, options: EmbeddedStartOptions) {
    this.#module = module;
    this.#options = options;
    this.#port = options.port;
    this.dataDir = options.dataDir ?? '';
  }

  /** Starts a server; resolves once it listens. */
  static async start(options: ServerOptions): Promise<EmbeddedZooKeeperServer> {
    checkObject('EmbeddedZooKeeperServer.start', 'options', options, false);
    checkServerOptions('EmbeddedZooKeeperServer.start', options);
    refuseEmbeddedOptions(options);
    const module = await loadEmbeddedServer();
    const server = new EmbeddedZooKeeperServer(module, startOptions(options));
    await server.start();
    return server;
  }

  /** The client port (kept across stop and start). */
  get port(): number {
    return this.#port;
  }

  /** `127.0.0.1:<port>`. */
  get connectString(): string {
    return `${this.host}:${this.#port}`;
  }

  /** Whether the server listens now. */
  get running(): boolean {
    return this.#server !== undefined;
  }

  /** Listens again on the same port (no-op while running). */
  start(): Promise<void> {
    return this.#serialize(async () => {
      if (this.#server) return;
      this.#server = await this.#module.startServer({ ...this.#options, port: this.#port });
      this.#port = this.#server.port;
    });
  }

  /** Closes the server: every connection dropped; the data kept only in a dataDir. */
  stop(): Promise<void> {
    return this.#serialize(async () => {
      const server = this.#server;
      this.#server = undefined;
      await server?.close();
    });
  }

  /** The same as stop: in one process, closing is as abrupt as it gets. */
  kill(): Promise<void> {
    return this.stop();
  }

  /** stop + start on the same port. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Sends a four-letter word over TCP (answered once @zkts/server answers four-letter words). */
  fourLetter(cmd: string): Promise<string> {
    try {
      checkFourLetterWord('EmbeddedZooKeeperServer.fourLetter', cmd);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    if (!this.#server) return Promise.reject(new Error(`embedded server ${this.connectString} is stopped`));
    return fourLetter({ host: this.host, port: this.#port }, cmd);
  }

  /** Closes the server. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  #serialize(step: () => Promise<void>): Promise<void> {
    const next = this.#transition.then(step);
    this.#transition = next.catch(() => undefined);
    return next;
  }
}

function startOptions(options: ServerOptions): EmbeddedStartOptions {
  const out: EmbeddedStartOptions = { port: 0, host: HOST, tickTime: options.tickTime ?? 500 };
  if (options.minSessionTimeout !== undefined) out.minSessionTimeout = options.minSessionTimeout;
  if (options.maxSessionTimeout !== undefined) out.maxSessionTimeout = options.maxSessionTimeout;
  if (options.superPassword !== undefined) out.superDigest = digestCredential('super', options.superPassword);
  if (options.extendedTypesEnabled !== undefined) out.extendedTypesEnabled = options.extendedTypesEnabled;
  if (options.containerCheckIntervalMs !== undefined) out.containerCheckIntervalMs = options.containerCheckIntervalMs;
  if (options.clock !== undefined) out.clock = options.clock;
  if (options.dataDir !== undefined) out.dataDir = options.dataDir;
  // ZooKeeper's 4lw.commands.whitelist is one comma-separated string, '*' by default as for the other backends;
  // the server takes the words.
  out.fourLetterWords = (options.fourLetterWhitelist ?? '*').split(',').map((w) => w.trim()).filter((w) => w !== '');
  return out;
}
