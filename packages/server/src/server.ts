/**
 * startServer: one in-process, in-memory ZooKeeper 3.8 standalone server — the shared state (tree, watches,
 * sessions), the TCP listener, the session expiry and the container/TTL reaper — and its handle.
 */
import { resolveOptions, type ServerOptions } from './options.js';
import { Listener } from './net/listener.js';
import { ServerCore } from './requests/core.js';
import { prepDeleteContainer, PrepView } from './requests/prep.js';
import { Rejection } from './requests/rejection.js';
import { ContainerReaper } from './tree/container-reaper.js';
import { openDataDir } from './persistence/data-dir.js';

/** A running server. */
export interface ZkServer extends AsyncDisposable {
  /** `host:port`, for a client's connect string. */
  readonly connectString: string;
  readonly host: string;
  readonly port: number;
  /** The last zxid applied. */
  readonly lastZxid: bigint;
  /** The TLS port, when `tls` is set. */
  readonly securePort: number | undefined;
  /** Number of open client connections. */
  readonly connectionCount: number;
  /** Stops listening, drops every connection and every timer. The data is gone, unless kept in a dataDir. */
  close(): Promise<void>;
}

/**
 * Starts a ZooKeeper 3.8 standalone server in this process and resolves once it listens, with its
 * `connectString`, `port` and `close()` (or `await using`). In memory unless `dataDir` names a directory for
 * ZooKeeper's own data files. Every option is checked first: a bad one rejects with `InvalidArgumentError`.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { startServer } from '@zkts/server';
 *
 * await using server = await startServer({ port: 0 }); // a free port
 * const zk = await connect(server.connectString);
 * await zk.create('/hello', 'world', { mode: 'ephemeral' });
 * console.log((await zk.getData('/hello')).data.toString(), server.connectionCount);
 * await zk.close();
 * // world 1
 * ```
 */
export async function startServer(options: ServerOptions = {}): Promise<ZkServer> {
  const resolved = resolveOptions(options);
  const core = new ServerCore(resolved);
  const dataDir = resolved.dataDir === undefined ? undefined : openDataDir(core, { ...resolved, dataDir: resolved.dataDir });
  const listener = new Listener(core);
  const secure = resolved.tls === undefined ? undefined : new Listener(core, resolved.tls);
  const reaper = new ContainerReaper(core.tree, resolved.clock, resolved.containerCheckIntervalMs, (path) => {
    const ctx = core.prepContext(0n, []);
    try {
      core.commit(prepDeleteContainer(new PrepView(core.tree), ctx, path, core.tree), ctx);
    } catch (err) {
      if (!(err instanceof Rejection)) {
        resolved.logger.warn(`reaping ${path} failed: ${(err as Error).message}`);
        return;
      }
      core.commit({ type: 'error', err: err.code }, ctx);
    }
  });
  let port: number;
  let securePort: number | undefined;
  try {
    port = await listener.listen(resolved.port, resolved.host);
    securePort = await secure?.listen(resolved.tls?.securePort ?? 0, resolved.host);
  } catch (err) {
    core.sessions.stop();
    await listener.close();
    dataDir?.close();
    throw err;
  }
  core.stats.clientPort = port;
  core.stats.securePort = securePort ?? -1;
  reaper.start();
  const host = resolved.host;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      reaper.stop();
      core.sessions.stop();
      await Promise.all([listener.close(), secure?.close()]);
      dataDir?.close();
    })();
    return closing;
  };
  return {
    connectString: `${hostPart}:${port}`,
    host,
    port,
    securePort,
    get lastZxid() {
      return core.tree.lastZxid;
    },
    get connectionCount() {
      return listener.size + (secure?.size ?? 0);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
