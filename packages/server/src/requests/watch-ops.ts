/**
 * Handlers of the watch opcodes: setWatches (101) and setWatches2 (105) re-register a reconnecting client's
 * watches and fire at once for what changed since its zxid; addWatch (106) sets a persistent or
 * persistent-recursive watch and answers ErrorResponse{0}; checkWatches (17) and removeWatches (18) answer
 * NoWatcher (-121) when there is nothing to check or remove. None checks an ACL, as in ZooKeeper.
 */
import {
  readAddWatchRequest,
  readCheckWatchesRequest,
  readRemoveWatchesRequest,
  readSetWatches,
  readSetWatches2,
  writeErrorResponse,
  type JuteReader,
} from '@zkts/protocol/codec';

import type { ClientConnection, ServerCore } from './core.js';
import { KeeperCode, reject } from './rejection.js';
import { answerRead, decode } from './respond.js';

/** setWatches (101). */
export function handleSetWatches(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    core.watches.setWatches(core.tree, decode(r, readSetWatches), conn);
    return null;
  });
}

/** setWatches2 (105). */
export function handleSetWatches2(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    core.watches.setWatches(core.tree, decode(r, readSetWatches2), conn);
    return null;
  });
}

/** addWatch (106). */
export function handleAddWatch(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    const req = decode(r, readAddWatchRequest);
    const path = req.path ?? reject(KeeperCode.MARSHALLING_ERROR);
    if (!core.watches.addPersistent(path, conn, req.mode)) reject(KeeperCode.MARSHALLING_ERROR);
    return (w) => writeErrorResponse(w, { err: 0 });
  });
}

/** checkWatches (17). */
export function handleCheckWatches(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    const req = decode(r, readCheckWatchesRequest);
    const found = core.watches.contains(req.path ?? reject(KeeperCode.MARSHALLING_ERROR), req.type);
    if (found === undefined) reject(KeeperCode.MARSHALLING_ERROR);
    if (!found) reject(KeeperCode.NO_WATCHER);
    return null;
  });
}

/** removeWatches (18). */
export function handleRemoveWatches(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    const req = decode(r, readRemoveWatchesRequest);
    const removed = core.watches.remove(req.path ?? reject(KeeperCode.MARSHALLING_ERROR), req.type, conn);
    if (removed === undefined) reject(KeeperCode.MARSHALLING_ERROR);
    if (!removed) reject(KeeperCode.NO_WATCHER);
    return null;
  });
}
