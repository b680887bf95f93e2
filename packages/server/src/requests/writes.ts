/**
 * Handlers of the write opcodes: create/create2/createContainer/createTTL, delete, setData, setACL, multi
 * (atomic: every op prepared against the changes of the ops before it; on the first failure the whole multi
 * becomes error results — 0 before it, its code, -2 after — and still consumes its zxid), reconfig (refused:
 * reconfig is disabled on a standalone server) and closeSession.
 */
import {
  readCheckVersionRequest,
  readCreateRequest,
  readCreateTTLRequest,
  readDeleteRequest,
  readMultiRequest,
  readSetACLRequest,
  readSetDataRequest,
  writeCreate2Response,
  writeCreateResponse,
  writeMultiResponse,
  writeSetACLResponse,
  writeSetDataResponse,
  type JuteReader,
  type MultiOp,
  type MultiResult,
} from '@zkts/protocol/codec';

import type { CreateOp, Txn, TxnResult } from '../tree/txn.js';
import type { ClientConnection, ServerCore } from './core.js';
import { prepCheck, prepCreate, prepDelete, prepSetACL, prepSetData, PrepView, type PrepContext } from './prep.js';
import { KeeperCode, Rejection } from './rejection.js';
import { answerWrite, decode, type Body } from './respond.js';

function createReply(result: TxnResult): Body {
  if (result.type !== 'create') return null;
  if (result.op === 'create') return (w) => writeCreateResponse(w, { path: result.path });
  return (w) => writeCreate2Response(w, { path: result.path, stat: result.stat });
}

function statReply(result: TxnResult): Body {
  if (result.type === 'setData') return (w) => writeSetDataResponse(w, { stat: result.stat });
  if (result.type === 'setACL') return (w) => writeSetACLResponse(w, { stat: result.stat });
  return null;
}

/** create (1), create2 (15), createContainer (19). */
export function handleCreate(op: 'create' | 'create2' | 'createContainer') {
  return (core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void =>
    answerWrite(core, conn, xid, (view, ctx) => prepCreate(view, ctx, op, { ...decode(r, readCreateRequest), ttl: -1n }), createReply);
}

/** createTTL (21). */
export function handleCreateTTL(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerWrite(core, conn, xid, (view, ctx) => prepCreate(view, ctx, 'createTTL', decode(r, readCreateTTLRequest)), createReply);
}

/** delete (2). */
export function handleDelete(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerWrite(core, conn, xid, (view, ctx) => prepDelete(view, ctx, decode(r, readDeleteRequest), core.tree), () => null);
}

/** setData (5). */
export function handleSetData(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerWrite(core, conn, xid, (view, ctx) => prepSetData(view, ctx, decode(r, readSetDataRequest)), statReply);
}

/** setACL (7). */
export function handleSetACL(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerWrite(core, conn, xid, (view, ctx) => prepSetACL(view, ctx, decode(r, readSetACLRequest)), statReply);
}

/** reconfig (16): a standalone server has reconfig disabled (ReconfigDisabled, -123, with a zxid). */
export function handleReconfig(core: ServerCore, conn: ClientConnection, xid: number): void {
  answerWrite(core, conn, xid, () => {
    throw new Rejection(KeeperCode.RECONFIG_DISABLED);
  }, () => null);
}

/**
 * The server rebuilds every create of a multi as an Op whose type follows its flags (Op.Create.getOpcode,
 * unknown flags read as persistent): container flags make createContainer, TTL flags createTTL, anything else
 * a plain create — so a create2 inside a multi answers without a Stat.
 */
function multiCreateOp(flags: number): CreateOp {
  if (flags === 4) return 'createContainer';
  if (flags === 5 || flags === 6) return 'createTTL';
  return 'create';
}

function prepOne(view: PrepView, ctx: PrepContext, op: MultiOp, core: ServerCore): Txn {
  switch (op.op) {
    case 'create':
    case 'create2':
    case 'createContainer':
      return prepCreate(view, ctx, multiCreateOp(op.flags), { ...op, ttl: -1n });
    case 'createTTL':
      return prepCreate(view, ctx, multiCreateOp(op.flags), op);
    case 'delete':
      return prepDelete(view, ctx, op, core.tree);
    case 'setData':
      return prepSetData(view, ctx, op);
    case 'check':
      return prepCheck(view, ctx, op);
    case 'getData':
    case 'getChildren':
      // pRequest2Txn has no case for reads: ZooKeeper ends up answering a marshalling error.
      throw new Rejection(KeeperCode.MARSHALLING_ERROR);
  }
}

/** PrepRequestProcessor's multi loop: txns, or error txns once one op failed. */
function prepMulti(view: PrepView, ctx: PrepContext, ops: readonly MultiOp[], core: ServerCore): Txn {
  const txns: Txn[] = [];
  let failed = -1;
  for (const op of ops) {
    if (failed >= 0) {
      txns.push({ type: 'error', err: KeeperCode.RUNTIME_INCONSISTENCY });
      continue;
    }
    try {
      txns.push(prepOne(view, ctx, op, core));
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      if (err.code === KeeperCode.MARSHALLING_ERROR && (op.op === 'getData' || op.op === 'getChildren')) throw err;
      failed = txns.length;
      txns.push({ type: 'error', err: err.code });
    }
  }
  // The ops before a failure keep their txns (so they are logged as ZooKeeper logs them); applyTxn answers 0.
  return { type: 'multi', txns };
}

function multiResult(result: TxnResult): MultiResult {
  switch (result.type) {
    case 'create':
      // CreateResult(path, stat) goes on the wire as create2.
      return result.op === 'create' ? { op: 'create', path: result.path } : { op: 'create2', path: result.path, stat: result.stat };
    case 'delete':
      return { op: 'delete' };
    case 'check':
      return { op: 'check' };
    case 'setData':
      return { op: 'setData', stat: result.stat };
    case 'error':
      return { op: 'error', err: result.err };
    default:
      return { op: 'error', err: KeeperCode.RUNTIME_INCONSISTENCY };
  }
}

/** multi (14). */
export function handleMulti(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerWrite(
    core,
    conn,
    xid,
    (view, ctx) => prepMulti(view, ctx, decode(r, readMultiRequest), core),
    (result) => {
      const results = result.type === 'multi' ? result.results.map(multiResult) : [];
      return (w) => writeMultiResponse(w, results);
    },
  );
}

/**
 * check (13) on its own: ZooKeeper 3.8.0 accepts it and commits a check transaction; a failed check is
 * answered with its error, a passing one never (the server fails building a reply it has no Stat for).
 */
export function handleCheck(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  const ctx = core.prepContext(conn.sessionId, conn.authInfo, xid);
  let txn: Txn;
  try {
    txn = prepCheck(new PrepView(core.tree), ctx, decode(r, readCheckVersionRequest));
  } catch (err) {
    if (!(err instanceof Rejection)) throw err;
    txn = { type: 'error', err: err.code };
  }
  const result = core.commit(txn, ctx);
  if (result.type === 'error') conn.reply(xid, core.tree.lastZxid, result.err);
}

/** closeSession (-11): one transaction, the reply, then the connection closes. */
export function handleCloseSession(core: ServerCore, conn: ClientConnection, xid: number): void {
  const { zxid } = core.closeSession(conn.sessionId, xid);
  conn.reply(xid, zxid, 0);
  conn.close('session closed by the client');
}
