/**
 * The sasl request (opcode 102, ZooKeeperServer.processSasl) and enforce.auth (AuthenticationHelper). A
 * GetSASLRequest token is evaluated by the connection's DIGEST-MD5 exchange; the answer is a SetSASLResponse
 * with zxid 0. Once the exchange completes, `sasl:<user>` joins the connection's identities. A failed exchange
 * is answered AuthFailed (-115), or SessionClosedRequireSaslAuth (-124) when enforce.auth requires sasl, with
 * a null token, and the connection closes. With enforce.auth, any other request of a connection without an
 * identity of a required scheme is answered -124 and the connection closes.
 */
import { readGetSASLRequest, writeReplyHeader, type JuteReader } from '@zkts/protocol/codec';

import type { ClientConnection, ServerCore } from '../requests/core.js';
import { KeeperCode } from '../requests/rejection.js';
import { DigestMd5Server, SaslFailure } from './digest-md5-server.js';

const exchanges = new WeakMap<ClientConnection, DigestMd5Server>();

/** Answers `err` with a null SetSASLResponse token (what ZooKeeper writes after the header) and closes. */
function refuse(conn: ClientConnection, xid: number, err: number, reason: string): void {
  conn.sendFrame((w) => {
    writeReplyHeader(w, { xid, zxid: 0n, err });
    w.writeBuffer(null);
  });
  conn.close(reason);
}

/** sasl (102). Returns false when SASL is not configured (the caller handles that). */
export function handleSasl(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): boolean {
  const users = core.options.saslUsers;
  if (users === undefined) return false;
  const token = readGetSASLRequest(r).token ?? new Uint8Array(0);
  let exchange = exchanges.get(conn);
  if (exchange === undefined) {
    exchange = new DigestMd5Server(users);
    exchanges.set(conn, exchange);
  }
  let response: Uint8Array;
  try {
    response = exchange.evaluate(token);
  } catch (err) {
    if (!(err instanceof SaslFailure)) throw err;
    core.options.logger.warn(`client ${conn.remoteAddress} failed to SASL authenticate: ${err.message}`);
    core.stats.authFailed++;
    const required = core.options.enforceAuthSchemes.includes('sasl');
    refuse(conn, xid, required ? KeeperCode.SESSION_CLOSED_REQUIRE_SASL_AUTH : KeeperCode.AUTH_FAILED, 'SASL authentication failed');
    return true;
  }
  const user = exchange.authorizationId;
  if (exchange.complete && user !== undefined) {
    if (!conn.authInfo.some((a) => a.scheme === 'sasl' && a.id === user)) conn.authInfo.push({ scheme: 'sasl', id: user });
    if (core.options.saslSuperUser === user && !conn.authInfo.some((a) => a.scheme === 'super')) {
      conn.authInfo.push({ scheme: 'super', id: '' });
    }
  }
  conn.reply(xid, 0n, 0, (w) => w.writeBuffer(response));
  return true;
}

/**
 * enforce.auth: whether the request may proceed. A connection without an identity of a required scheme gets
 * -124 (zxid 0) for it and is closed.
 */
export function enforceAuth(core: ServerCore, conn: ClientConnection, xid: number): boolean {
  const schemes = core.options.enforceAuthSchemes;
  if (schemes.length === 0 || conn.authInfo.some((a) => schemes.includes(a.scheme))) return true;
  core.options.logger.warn(`client ${conn.remoteAddress} failed to authenticate with scheme(s) ${schemes.join(',')}`);
  conn.reply(xid, 0n, KeeperCode.SESSION_CLOSED_REQUIRE_SASL_AUTH);
  conn.close('authentication required');
  return false;
}
