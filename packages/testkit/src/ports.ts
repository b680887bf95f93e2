import { createServer } from 'node:net';

import { checkInteger, checkString } from './option-checks.js';

/**
 * Asks the kernel for a free loopback port by binding port 0. The port is released before ZooKeeper binds
 * it, so another process can grab it in between; callers retry with a fresh port when the server fails to
 * bind (see server.ts). Ports are reserved in one batch so a single call never returns duplicates.
 */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  // A port per listening socket held at once: more than a few hundred is a bug, not a test's need.
  checkInteger('freePorts', 'count', count, 1, 1000, false);
  checkString('freePorts', 'host', host, { optional: false });
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      return new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
        const server = createServer();
        server.unref();
        server.once('error', reject);
        server.listen(0, host, () => resolve(server));
      });
    }),
  );
  const ports = servers.map((s) => {
    const address = s.address();
    if (address === null || typeof address === 'string') throw new Error('unexpected server address');
    return address.port;
  });
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return ports;
}

/** One TCP port free on this host now (see freePorts). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  checkString('freePort', 'host', host, { optional: false });
  const [port] = await freePorts(1, host);
  if (port === undefined) throw new Error('no port');
  return port;
}
