/**
 * From a request frame to its handler (ZooKeeperServer.processPacket / submitRequest): the RequestHeader is
 * read (a frame too short for one closes the connection), auth is answered outside the session, every other
 * request touches the session first (a closing session's requests are dropped unanswered), and an opcode
 * ZooKeeper does not accept from clients is answered Unimplemented (-6, zxid -1) before the connection closes.
 * Opcodes follow ZooKeeper 3.8.0, the release the conformance suite runs against.
 */
import { JuteReader, OpCode, readRequestHeader } from '@zkts/protocol/codec';

import { enforceAuth, handleSasl } from '../sasl/sasl-op.js';
import { handleAuth } from './auth.js';
import type { ClientConnection, ServerCore } from './core.js';
import { prepDeleteContainer } from './prep.js';
import * as reads from './reads.js';
import { KeeperCode } from './rejection.js';
import { answerWrite } from './respond.js';
import * as watchOps from './watch-ops.js';
import * as writes from './writes.js';

type Handler = (core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader, frame: Uint8Array) => void;

const HANDLERS = new Map<number, Handler>([
  [OpCode.create, writes.handleCreate('create')],
  [OpCode.create2, writes.handleCreate('create2')],
  [OpCode.createContainer, writes.handleCreate('createContainer')],
  [OpCode.createTTL, writes.handleCreateTTL],
  [OpCode.delete, writes.handleDelete],
  [OpCode.setData, writes.handleSetData],
  [OpCode.setACL, writes.handleSetACL],
  [OpCode.multi, writes.handleMulti],
  [OpCode.check, writes.handleCheck],
  [OpCode.reconfig, writes.handleReconfig],
  [OpCode.closeSession, writes.handleCloseSession],
  [OpCode.deleteContainer, handleDeleteContainer],
  [OpCode.exists, reads.handleExists],
  [OpCode.getData, reads.handleGetData],
  [OpCode.getChildren, reads.handleGetChildren],
  [OpCode.getChildren2, reads.handleGetChildren2],
  [OpCode.getACL, reads.handleGetACL],
  [OpCode.getAllChildrenNumber, reads.handleGetAllChildrenNumber],
  [OpCode.getEphemerals, reads.handleGetEphemerals],
  [OpCode.multiRead, reads.handleMultiRead],
  [OpCode.sync, reads.handleSync],
  [OpCode.whoAmI, reads.handleWhoAmI],
  [OpCode.setWatches, watchOps.handleSetWatches],
  [OpCode.setWatches2, watchOps.handleSetWatches2],
  [OpCode.addWatch, watchOps.handleAddWatch],
  [OpCode.checkWatches, watchOps.handleCheckWatches],
  [OpCode.removeWatches, watchOps.handleRemoveWatches],
  [OpCode.ping, (core, conn) => conn.reply(-2, core.tree.lastZxid, 0)],
]);

/**
 * deleteContainer (20) is accepted from clients too; ZooKeeper reads its path from the whole request buffer
 * (header included), so what a client sends never names a real node.
 */
function handleDeleteContainer(core: ServerCore, conn: ClientConnection, xid: number, _r: JuteReader, frame: Uint8Array): void {
  const path = new TextDecoder().decode(frame);
  answerWrite(core, conn, xid, (view, ctx) => prepDeleteContainer(view, ctx, path, core.tree), () => null);
}

/** Handles one request frame of an established connection. */
export function dispatch(core: ServerCore, conn: ClientConnection, frame: Uint8Array, remoteAddress: string): void {
  const r = new JuteReader(frame, { maxLength: core.options.maxBuffer });
  let header;
  try {
    header = readRequestHeader(r);
  } catch {
    conn.close('request shorter than its header');
    return;
  }
  const { xid, type } = header;
  if (type === OpCode.auth) {
    try {
      handleAuth(core, conn, xid, r, remoteAddress);
    } catch {
      conn.close('malformed auth packet');
    }
    return;
  }
  if (type === OpCode.sasl && handleSasl(core, conn, xid, r)) return;
  if (type === OpCode.sasl) {
    // No SASL server is configured: ZooKeeper fails on the missing SASL server and drops the connection.
    conn.close('SASL is not configured');
    return;
  }
  if (!enforceAuth(core, conn, xid)) return;
  if (!core.sessions.touch(conn.sessionId, conn.sessionTimeout)) return;
  const handler = HANDLERS.get(type);
  if (handler === undefined) {
    conn.reply(xid, -1n, KeeperCode.UNIMPLEMENTED);
    conn.close(`unknown request type ${type}`);
    return;
  }
  handler(core, conn, xid, r, frame);
}
