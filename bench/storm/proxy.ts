// A counting TCP proxy in front of one surviving member of the reconnect-storm row: every accepted connection
// is timestamped (Date.now, the clock the clients report in), so the harness can count connection attempts per
// 10 ms at the survivors. It starts closed (connections refused, like a member that is down) so that every
// session first connects to the member that will be killed, and opens just before the kill.
import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

export interface CountingProxy {
  readonly port: number;
  /** Accept times (Date.now) of every connection since `open`. */
  readonly accepts: number[];
  open(): Promise<void>;
  close(): Promise<void>;
}

export function countingProxy(port: number, upstream: { host: string; port: number }): CountingProxy {
  const accepts: number[] = [];
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const track = (s: Socket): void => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  return {
    port,
    accepts,
    open: () =>
      new Promise((resolve, reject) => {
        const srv = createServer((client) => {
          accepts.push(Date.now());
          const up = connect(upstream.port, upstream.host);
          track(client);
          track(up);
          client.pipe(up);
          up.pipe(client);
          client.on('close', () => up.destroy());
          up.on('close', () => client.destroy());
        });
        // A backlog as deep as a member's own (ZooKeeper's NIO factory asks the OS for 50), so a burst
        // meets the same accept queue here as without the proxy.
        srv.once('error', reject);
        srv.listen({ port, host: '127.0.0.1', backlog: 511 }, () => resolve());
        server = srv;
      }),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        if (server === null) resolve();
        else server.close(() => resolve());
      }),
  };
}
