/**
 * The session handshake (ZooKeeperServer.processConnectRequest, createSession, reopenSession,
 * finishSessionInit). A client that has seen a later zxid than ours is refused by closing the connection; the
 * timeout is clamped to [minSessionTimeout, maxSessionTimeout]; session id 0 creates a session (a transaction
 * of its own, so it consumes a zxid); any other id first closes the connection that held it, then re-attaches
 * when the password matches and the session lives — otherwise the answer is timeout 0, id 0, a zeroed password
 * (expired) and the connection closes. The trailing readOnly byte is answered only to clients that sent one.
 */
import { JuteReader, readConnectRequest, writeConnectResponse, type ConnectRequest } from '@zkts/protocol/codec';

import type { ClientConnection, ServerCore } from '../requests/core.js';

/** Handles the first frame of a connection; false when the connection is being closed. */
export function handshake(core: ServerCore, conn: ClientConnection, frame: Uint8Array): boolean {
  let req: ConnectRequest & { readOnly: boolean | undefined };
  try {
    req = readConnectRequest(new JuteReader(frame, { maxLength: core.options.maxBuffer }));
  } catch {
    conn.close('malformed connect request');
    return false;
  }
  if (req.lastZxidSeen > core.tree.lastZxid) {
    core.options.logger.info(
      `refusing a session: the client has seen zxid 0x${req.lastZxidSeen.toString(16)}, ours is 0x${core.tree.lastZxid.toString(16)}`,
    );
    conn.close('client zxid ahead');
    return false;
  }
  const { minSessionTimeout, maxSessionTimeout } = core.options;
  const timeout = Math.min(Math.max(req.timeOut, minSessionTimeout), maxSessionTimeout);
  conn.sessionTimeout = timeout;
  const trailer = req.readOnly === undefined ? undefined : false;
  if (req.sessionId === 0n) {
    const session = core.sessions.create(timeout);
    conn.sessionId = session.id;
    core.commit({ type: 'createSession' }, core.prepContext(session.id, []));
    core.bind(conn);
    conn.sendFrame((w) => writeConnectResponse(w, { protocolVersion: 0, timeOut: timeout, sessionId: session.id, passwd: session.password }, trailer));
    return true;
  }
  const previous = core.connectionOf(req.sessionId);
  if (previous !== undefined && previous !== conn) previous.close('session re-attached from another connection');
  conn.sessionId = req.sessionId;
  const session = core.sessions.get(req.sessionId);
  const valid = session !== undefined && core.sessions.passwordMatches(session, req.passwd) && core.sessions.touch(session.id, timeout);
  if (!valid) {
    conn.sendFrame((w) => writeConnectResponse(w, { protocolVersion: 0, timeOut: 0, sessionId: 0n, passwd: new Uint8Array(16) }, trailer));
    conn.close('session expired or password wrong');
    return false;
  }
  session.timeout = timeout;
  core.bind(conn);
  conn.sendFrame((w) => writeConnectResponse(w, { protocolVersion: 0, timeOut: timeout, sessionId: session.id, passwd: session.password }, trailer));
  return true;
}
