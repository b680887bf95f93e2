/**
 * The two reply shapes every handler uses. A read answers from the tree with the last zxid; a write reserves
 * the next zxid, prepares a transaction (a refusal becomes an error transaction, which still consumes the zxid,
 * as in ZooKeeper) and commits it before replying. A body that cannot be decoded is a marshalling error (-5).
 */
import type { JuteReader, JuteWriter } from '@zkts/protocol/codec';

import type { Txn, TxnResult } from '../tree/txn.js';
import type { ClientConnection, ServerCore } from './core.js';
import { PrepView, type PrepContext } from './prep.js';
import { KeeperCode, Rejection } from './rejection.js';

/** A reply body writer, or null for a header-only reply. */
export type Body = ((w: JuteWriter) => void) | null;

/** Decodes a request record; any decoding failure is a marshalling error. */
export function decode<T>(r: JuteReader, read: (r: JuteReader) => T): T {
  try {
    return read(r);
  } catch {
    throw new Rejection(KeeperCode.MARSHALLING_ERROR);
  }
}

/** Answers a read: `answer` returns the body or throws a Rejection. */
export function answerRead(core: ServerCore, conn: ClientConnection, xid: number, answer: () => Body): void {
  let body: Body;
  try {
    body = answer();
  } catch (err) {
    if (!(err instanceof Rejection)) throw err;
    conn.reply(xid, core.tree.lastZxid, err.code);
    return;
  }
  conn.reply(xid, core.tree.lastZxid, 0, body ?? undefined);
}

/** Runs a write: prepare (may reject), commit, reply with `respond`'s body. */
export function answerWrite(
  core: ServerCore,
  conn: ClientConnection,
  xid: number,
  prepare: (view: PrepView, ctx: PrepContext) => Txn,
  respond: (result: TxnResult) => Body,
): void {
  const ctx = core.prepContext(conn.sessionId, conn.authInfo, xid);
  let txn: Txn;
  try {
    txn = prepare(new PrepView(core.tree), ctx);
  } catch (err) {
    if (!(err instanceof Rejection)) throw err;
    txn = { type: 'error', err: err.code };
  }
  const result = core.commit(txn, ctx);
  if (result.type === 'error') conn.reply(xid, core.tree.lastZxid, result.err);
  else conn.reply(xid, core.tree.lastZxid, 0, respond(result) ?? undefined);
}
