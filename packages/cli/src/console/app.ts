/**
 * One console: the HTTP server with every feature's routes over one ZooKeeper client. `zkts console` and the
 * tests start it the same way. The caller owns the client; `close()` stops the HTTP server and the
 * console's own sources (sampler, proxy), not the client.
 */
import type { ConnectionOptions } from 'node:tls';

import type { ZkClient } from '@zkts/protocol';

import { serverHosts } from '../hosts.js';
import { startConsoleServer } from './http-server.js';
import type { Route } from './router.js';
import { editRoutes } from './routes/edit.js';
import { eventsRoutes } from './routes/events.js';
import { infoRoutes } from './routes/info.js';
import { opsRoutes, type OpsDeps } from './routes/ops.js';
import { recipeRoutes } from './routes/recipes.js';
import { treeRoutes } from './routes/tree.js';
import { randomSecret } from './security.js';
import { createSources, type Sources } from './sources/index.js';
import { defaultAssetsDir } from './static-assets.js';

export interface ConsoleOptions {
  readonly client: ZkClient;
  /** The connect string, as shown on the page. */
  readonly server: string;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 8080; 0 picks a free port. */
  readonly port?: number;
  readonly readOnly?: boolean;
  /** The server's dataDir, for the History view. */
  readonly dataDir?: string;
  /** Where applications connect to have their traffic decoded (`HOST:PORT`; port 0: a free one). */
  readonly proxy?: { readonly host: string; readonly port: number };
  /** Default: a fresh random token. */
  readonly token?: string;
  readonly version?: string;
  /** Default: the bundle the package build wrote. */
  readonly assetsDir?: string;
  /** How often the server's `mntr` is sampled, ms (default 2000). */
  readonly mntrEveryMs?: number;
  /** The session's TLS options: four-letter words to a secureClientPort go over TLS too. */
  readonly tls?: ConnectionOptions | undefined;
}

export interface RunningConsole {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** `--proxy`'s bound address (`host:port`), or null. */
  readonly proxy: string | null;
  close(): Promise<void>;
}

/** The sources as the routes see them: a feature the console was started without is undefined. */
function opsDeps(sources: Sources): OpsDeps {
  return {
    sessions: () => sources.fourLetter.sessions(),
    mntr: () => sources.fourLetter.mntr(),
    traffic: () => sources.traffic?.info(),
    history: (query) => sources.history?.page(query),
  };
}

export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const token = options.token ?? randomSecret();
  const csrf = randomSecret();
  const readOnly = options.readOnly ?? false;
  const hosts = serverHosts(options.server);
  const upstream = hosts[0];
  const sources = await createSources({
    hosts,
    ...(options.proxy === undefined || upstream === undefined ? {} : { proxy: { listen: options.proxy, upstream } }),
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.mntrEveryMs === undefined ? {} : { mntrEveryMs: options.mntrEveryMs }),
    ...(options.tls === undefined ? {} : { fourLetter: { tls: options.tls } }),
  });
  const proxy = sources.traffic?.address ?? null;
  const routes: Route[] = [
    ...infoRoutes({
      client: options.client,
      server: options.server,
      readOnly,
      csrf,
      version: options.version ?? 'dev',
      proxy: () => proxy,
      dataDir: options.dataDir ?? null,
    }),
    ...treeRoutes({ client: options.client }),
    ...eventsRoutes({ client: options.client }),
    ...editRoutes({ client: options.client }),
    ...recipeRoutes({ client: options.client }),
    ...opsRoutes(opsDeps(sources)),
  ];
  let server;
  try {
    server = await startConsoleServer({
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 8080,
      token,
      csrf,
      readOnly,
      routes,
      assetsDir: options.assetsDir ?? defaultAssetsDir(),
    });
  } catch (error) {
    await sources.close();
    throw error;
  }
  const http = server;
  return {
    url: http.url,
    port: http.port,
    token,
    proxy,
    close: async () => {
      await http.close();
      await sources.close();
    },
  };
}
