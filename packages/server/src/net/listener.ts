/**
 * The TCP listener: accepts clients on host:port (0 = a free port), makes a Connection per socket, and on
 * close stops accepting, drops every connection and resolves once the port is free.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

import type { TlsOptions } from '../options.js';
import type { ServerCore } from '../requests/core.js';
import { Connection } from './connection.js';
import { createTlsServer, x509Identity } from './tls.js';

/** A listening socket and its connections. */
export class Listener {
  private readonly server: Server;
  private readonly connections = new Set<Connection>();

  /** With `tls`, a TLS port whose clients' certificates become `x509` identities. */
  constructor(private readonly core: ServerCore, tls?: TlsOptions) {
    this.server = tls === undefined ? createServer((socket: Socket) => this.accept(socket)) : createTlsServer(tls, (socket) => this.accept(socket));
    this.server.on('error', (err) => core.options.logger.warn(`listener: ${err.message}`));
  }

  private accept(socket: Socket): void {
    const conn = new Connection(this.core, socket, this.core.options.logger, (c) => this.connections.delete(c));
    this.connections.add(conn);
    const x509 = 'encrypted' in socket ? x509Identity(socket as TLSSocket) : undefined;
    if (x509 !== undefined) conn.authInfo.push({ scheme: 'x509', id: x509 });
  }

  /** Listens; resolves with the bound port. */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.server.once('error', onError);
      this.server.listen(port, host, () => {
        this.server.off('error', onError);
        const address = this.server.address();
        resolve(typeof address === 'object' && address !== null ? address.port : port);
      });
    });
  }

  /** Number of open connections. */
  get size(): number {
    return this.connections.size;
  }

  /** Stops accepting and drops every connection. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const conn of this.connections) conn.destroy();
    });
  }
}
