/**
 * A failed TLS connection in words: Node reports certificate checks with OpenSSL's verify codes and alerts
 * from the server as OpenSSL's multi-field error strings, neither of which tells a person what to change.
 * Every failure here is one the next attempt will meet again (the same certificate, the same CA, a port that
 * does not speak TLS), so a command-line tool gives up on it at once instead of retrying until --timeout.
 */

/** The certificate chain does not end in a CA the client trusts. */
const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
]);

const WORDS: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server certificate is self-signed and not trusted',
  CERT_HAS_EXPIRED: 'the server certificate has expired',
  CERT_NOT_YET_VALID: 'the server certificate is not valid yet',
  CERT_REVOKED: 'the server certificate is revoked',
  CERT_SIGNATURE_FAILURE: 'the server certificate has a bad signature',
  INVALID_CA: 'a CA certificate of the chain is not a valid CA',
  INVALID_PURPOSE: 'the server certificate is not for TLS servers (extendedKeyUsage)',
  CERT_UNTRUSTED: 'the server certificate is not trusted',
  CERT_REJECTED: 'the server certificate is rejected',
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: 'the server requires a client certificate (--tls-cert, --tls-key)',
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: 'the server refused the handshake (no common protocol or cipher, or a client certificate is required)',
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: 'the server rejected the client certificate',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: 'the server rejected the client certificate',
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: 'the server does not trust the CA of the client certificate',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server does not speak TLS (is the port its secureClientPort?)',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'the server does not speak TLS (is the port its secureClientPort?)',
};

/** Node's message when the peer closes the connection in the middle of the handshake. */
const CLOSED_IN_HANDSHAKE = 'before secure TLS connection was established';

/**
 * What a connect failure's cause means when it is about TLS; undefined when it is not. `detail` is Node's own
 * message, for the codes whose message names what is wrong (the names a certificate is for).
 */
export function tlsFailureText(code: string, message: string): string | undefined {
  if (UNKNOWN_AUTHORITY.has(code)) return 'TLS: certificate signed by an unknown authority (--tls-ca FILE: the CA to trust)';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    // "Hostname/IP does not match certificate's altnames: Host: x. is not in the cert's altnames: DNS:y"
    const reason = message.slice(message.indexOf(':') + 1).trim();
    return `TLS: the certificate is not for this host: ${reason} (--tls-servername NAME: the name to expect)`;
  }
  const words = WORDS[code];
  if (words !== undefined) return `TLS: ${words}`;
  if (code === 'ECONNRESET' && message.includes(CLOSED_IN_HANDSHAKE)) {
    return 'TLS: the server closed the connection during the handshake (is the port its secureClientPort? a plain port does this)';
  }
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code.startsWith('ERR_OSSL_')) return `TLS: ${opensslReason(message)}`;
  return undefined;
}

/**
 * OpenSSL's part of a message, `80AC…:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate
 * required:../deps/…:SSL alert number 116`, is cut down to its reason (`tlsv13 alert certificate required`).
 */
export function opensslReason(message: string): string {
  const match = /:error:[0-9A-Fa-f]+:[^:]*:[^:]*:([^:]+)(?::|$)/m.exec(message);
  return (match?.[1] ?? message).replace(/\s+/g, ' ').trim();
}
