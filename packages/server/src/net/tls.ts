/**
 * The TLS client port (ZooKeeper's secureClientPort over node:tls) and the x509 identity of a client
 * certificate, as X509AuthenticationProvider makes it: the subject's distinguished name as Java's
 * X500Principal.getName() prints it (RFC 2253: most specific attribute first, comma separated, special
 * characters escaped). `ssl.clientAuth` decides whether a certificate is required (need, the default),
 * optional (want: an untrusted one still fails) or not asked for (none).
 */
import { createServer, type Server, type TLSSocket } from 'node:tls';
import type { Socket } from 'node:net';

import type { TlsOptions } from '../options.js';

/**
 * The subject as RFC 2253 orders it. Node lists the subject's attributes one per line in certificate order
 * (least specific first), values already escaped as RFC 2253 asks (`\,`, `\+`, …); Java prints them in
 * reverse order, comma separated.
 */
export function subjectDN(subject: string): string {
  return subject
    .split('\n')
    .filter((line) => line !== '')
    .reverse()
    .join(',');
}

/** The x509 identity of a TLS connection, or undefined when it presented no trusted certificate. */
export function x509Identity(socket: TLSSocket): string | undefined {
  if (!socket.authorized) return undefined;
  const cert = socket.getPeerX509Certificate();
  return cert === undefined ? undefined : subjectDN(cert.subject);
}

/** A TLS server handing each established connection to `accept`. */
export function createTlsServer(options: TlsOptions, accept: (socket: Socket) => void): Server {
  const clientAuth = options.clientAuth ?? 'need';
  const server = createServer(
    {
      key: options.key,
      cert: options.cert,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
      requestCert: clientAuth !== 'none',
      rejectUnauthorized: clientAuth === 'need',
    },
    (socket: TLSSocket) => {
      // want: no certificate is fine, an untrusted one is not (as Java's trust manager decides).
      if (clientAuth === 'want' && !socket.authorized && socket.getPeerX509Certificate() !== undefined) {
        socket.destroy();
        return;
      }
      accept(socket);
    },
  );
  // A failed handshake concerns that client only.
  server.on('tlsClientError', (_err, socket) => socket.destroy());
  return server;
}
