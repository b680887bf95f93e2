/**
 * Handlers of the read opcodes (FinalRequestProcessor): exists (READ when the node exists; its watch is set
 * even on a missing node), getData, getChildren/getChildren2 (no watch on a missing node), getACL (READ or
 * ADMIN; digest hashes hidden without ADMIN), getAllChildrenNumber, getEphemerals, multiRead (each read
 * succeeds or fails on its own), sync and whoAmI. getConfig is a getData of /zookeeper/config.
 */
import {
  Perms,
  readExistsRequest,
  readGetACLRequest,
  readGetAllChildrenNumberRequest,
  readGetChildren2Request,
  readGetChildrenRequest,
  readGetDataRequest,
  readGetEphemeralsRequest,
  readMultiRequest,
  readSyncRequest,
  writeExistsResponse,
  writeGetACLResponse,
  writeGetAllChildrenNumberResponse,
  writeGetChildren2Response,
  writeGetChildrenResponse,
  writeGetDataResponse,
  writeGetEphemeralsResponse,
  writeMultiResponse,
  writeSyncResponse,
  writeWhoAmIResponse,
  type JuteReader,
  type MultiResult,
} from '@zkts/protocol/codec';

import { clientInfos, hasPermission, maskDigests } from '../tree/acl.js';
import type { DataNode } from '../tree/data-tree.js';
import type { ClientConnection, ServerCore } from './core.js';
import { KeeperCode, reject, Rejection } from './rejection.js';
import { answerRead, decode } from './respond.js';

function existing(core: ServerCore, path: string | null): DataNode {
  // A null path is a NullPointerException in ZooKeeper: a marshalling error.
  if (path === null) reject(KeeperCode.MARSHALLING_ERROR);
  return core.tree.getNode(path) ?? reject(KeeperCode.NO_NODE);
}

function requireRead(node: DataNode, conn: ClientConnection, perm: number = Perms.READ): void {
  if (!hasPermission(node.acl, perm, conn.authInfo)) reject(KeeperCode.NO_AUTH);
}

/** exists (3). */
export function handleExists(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    const req = decode(r, readExistsRequest);
    const path = req.path ?? reject(KeeperCode.MARSHALLING_ERROR);
    if (path.includes('\0')) reject(KeeperCode.BAD_ARGUMENTS);
    // ZooKeeper 3.8.0 checks no ACL on exists (later 3.8 releases require READ on an existing node).
    const node = core.tree.getNode(path);
    if (req.watch) core.watches.data.add(path, conn);
    if (node === undefined) reject(KeeperCode.NO_NODE);
    const stat = core.tree.statOf(node);
    return (w) => writeExistsResponse(w, { stat });
  });
}

function getData(core: ServerCore, conn: ClientConnection, req: { path: string | null; watch: boolean }): { data: Uint8Array | null; node: DataNode } {
  const node = existing(core, req.path);
  requireRead(node, conn);
  if (req.watch) core.watches.data.add(req.path as string, conn);
  return { data: node.data, node };
}

function getChildren(core: ServerCore, conn: ClientConnection, req: { path: string | null; watch: boolean }): { children: string[]; node: DataNode } {
  const node = existing(core, req.path);
  requireRead(node, conn);
  const children = core.tree.childrenOf(node);
  if (req.watch) core.watches.child.add(req.path as string, conn);
  return { children, node };
}

/** getData (4). */
export function handleGetData(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    const { data, node } = getData(core, conn, decode(r, readGetDataRequest));
    const stat = core.tree.statOf(node);
    return (w) => writeGetDataResponse(w, { data, stat });
  });
}

/** getChildren (8). */
export function handleGetChildren(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    const { children } = getChildren(core, conn, decode(r, readGetChildrenRequest));
    return (w) => writeGetChildrenResponse(w, { children });
  });
}

/** getChildren2 (12). */
export function handleGetChildren2(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    const { children, node } = getChildren(core, conn, decode(r, readGetChildren2Request));
    const stat = core.tree.statOf(node);
    return (w) => writeGetChildren2Response(w, { children, stat });
  });
}

/** getACL (6). */
export function handleGetACL(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    const node = existing(core, decode(r, readGetACLRequest).path);
    requireRead(node, conn, Perms.READ | Perms.ADMIN);
    const acl = hasPermission(node.acl, Perms.ADMIN, conn.authInfo) ? [...node.acl] : maskDigests(node.acl);
    const stat = core.tree.statOf(node);
    return (w) => writeGetACLResponse(w, { acl, stat });
  });
}

/** getAllChildrenNumber (104). */
export function handleGetAllChildrenNumber(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    const path = decode(r, readGetAllChildrenNumberRequest).path;
    const node = existing(core, path);
    requireRead(node, conn);
    const totalNumber = core.tree.allChildrenNumber(path as string);
    return (w) => writeGetAllChildrenNumberResponse(w, { totalNumber });
  });
}

/** String.trim(): code units <= U+0020 dropped at both ends. */
function javaTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) <= 0x20) start++;
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--;
  return s.slice(start, end);
}

/** getEphemerals (103): the session's ephemerals, all of them or those starting with the prefix. */
export function handleGetEphemerals(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    const prefix = decode(r, readGetEphemeralsRequest).prefixPath;
    const all = core.tree.ephemeralsOf(conn.sessionId);
    const trimmed = prefix === null ? null : javaTrim(prefix);
    const ephemerals = prefix === null || trimmed === '' || trimmed === '/' ? all : all.filter((p) => p.startsWith(prefix));
    return (w) => writeGetEphemeralsResponse(w, { ephemerals });
  });
}

/**
 * multiRead (22): each read answers on its own; a write inside is a marshalling error for the whole. The
 * server rebuilds each read as an Op without its watch flag, so multiRead never leaves a watch.
 */
export function handleMultiRead(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    const ops = decode(r, readMultiRequest);
    const results: MultiResult[] = [];
    for (const op of ops) {
      try {
        if (op.op === 'getData') {
          const { data, node } = getData(core, conn, { path: op.path, watch: false });
          results.push({ op: 'getData', data, stat: core.tree.statOf(node) });
        } else if (op.op === 'getChildren') {
          results.push({ op: 'getChildren', children: getChildren(core, conn, { path: op.path, watch: false }).children });
        } else {
          reject(KeeperCode.MARSHALLING_ERROR);
        }
      } catch (err) {
        if (!(err instanceof Rejection) || (op.op !== 'getData' && op.op !== 'getChildren')) throw err;
        results.push({ op: 'error', err: err.code });
      }
    }
    return (w) => writeMultiResponse(w, results);
  });
}

/** sync (9): standalone, there is nothing to wait for; the path comes back. */
export function handleSync(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader): void {
  answerRead(core, conn, xid, () => {
    const path = decode(r, readSyncRequest).path;
    return (w) => writeSyncResponse(w, { path });
  });
}

/** whoAmI (107). */
export function handleWhoAmI(core: ServerCore, conn: ClientConnection, xid: number): void {
  answerRead(core, conn, xid, () => {
    const clientInfo = clientInfos(conn.authInfo);
    return (w) => writeWhoAmIResponse(w, { clientInfo });
  });
}
