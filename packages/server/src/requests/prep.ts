/**
 * Validation of write requests into transactions (PrepRequestProcessor.pRequest2Txn), check for check in
 * ZooKeeper's order: the first failing check decides the error code. A PrepView overlays the changes of the
 * ops already prepared in the same multi on the tree (ZooKeeper's outstanding ChangeRecords), so a multi can
 * create a node and then its child, and is discarded when any op fails.
 */
import { Perms, type ACL } from '@zkts/protocol/codec';

import { fixupACL, hasPermission, type AuthId } from '../tree/acl.js';
import type { DataTree, NodeStat } from '../tree/data-tree.js';
import { CONTAINER_EPHEMERAL_OWNER, ephemeralKind, isValidTtl, ttlOwner } from '../tree/ephemeral-type.js';
import { invalidPathReason, parentOf, sequenceSuffix } from '../tree/path.js';
import type { CreateOp, Txn } from '../tree/txn.js';
import { KeeperCode, reject } from './rejection.js';

/** A node as the ops prepared so far would leave it (ChangeRecord). */
interface ChangeRecord {
  stat: NodeStat;
  childCount: number;
  acl: readonly ACL[];
}

/** Who asks, and when. */
export interface PrepContext {
  readonly sessionId: bigint;
  readonly authInfo: readonly AuthId[];
  readonly zxid: bigint;
  readonly time: bigint;
  readonly extendedTypesEnabled: boolean;
  /** Authentication providers registered beyond digest and ip (`sasl`, `x509`). */
  readonly authSchemes?: readonly string[];
  /** The request's xid (the logged txn's cxid); 0 for the server's own transactions. */
  readonly xid?: number;
}

/** The tree with the changes of earlier ops of the same request on top. */
export class PrepView {
  private readonly overlay = new Map<string, ChangeRecord | null>();

  constructor(private readonly tree: DataTree) {}

  /** getRecordForPath: NoNode when absent. */
  record(path: string): ChangeRecord {
    const over = this.overlay.get(path);
    if (over === null) reject(KeeperCode.NO_NODE);
    if (over !== undefined) return over;
    const node = this.tree.getNode(path);
    if (node === undefined) return reject(KeeperCode.NO_NODE);
    return { stat: node.stat, childCount: node.children.size, acl: node.acl };
  }

  exists(path: string): boolean {
    const over = this.overlay.get(path);
    return over === undefined ? this.tree.getNode(path) !== undefined : over !== null;
  }

  /** Records a changed (or, with null, deleted) node. */
  change(path: string, record: ChangeRecord | null): void {
    this.overlay.set(path, record);
  }
}

function dup(r: ChangeRecord): ChangeRecord {
  return { stat: { ...r.stat }, childCount: r.childCount, acl: r.acl };
}

function requirePath(path: string | null): string {
  // A null path is a NullPointerException in ZooKeeper's prep: answered as a marshalling error.
  return path ?? reject(KeeperCode.MARSHALLING_ERROR);
}

function validatePath(path: string): void {
  if (invalidPathReason(path) !== undefined) reject(KeeperCode.BAD_ARGUMENTS);
}

function checkACL(acl: readonly ACL[], perm: number, ctx: PrepContext): void {
  if (!hasPermission(acl, perm, ctx.authInfo)) reject(KeeperCode.NO_AUTH);
}

function checkVersion(current: number, expected: number): number {
  if (expected !== -1 && expected !== current) reject(KeeperCode.BAD_VERSION);
  return current + 1;
}

/** The fields of CreateRequest / CreateTTLRequest (ttl -1 for the former). */
export interface CreateFields {
  path: string | null;
  data: Uint8Array | null;
  acl: ACL[] | null;
  flags: number;
  ttl: bigint;
}

/** pRequest2TxnCreate. */
export function prepCreate(view: PrepView, ctx: PrepContext, op: CreateOp, req: CreateFields): Txn {
  const flags = req.flags;
  if (!Number.isInteger(flags) || flags < 0 || flags > 6) reject(KeeperCode.BAD_ARGUMENTS);
  const isTtlMode = flags === 5 || flags === 6;
  const isSequential = flags === 2 || flags === 3 || flags === 6;
  const isEphemeral = flags === 1 || flags === 3;
  if (isTtlMode && !ctx.extendedTypesEnabled) reject(KeeperCode.UNIMPLEMENTED);
  if (isTtlMode ? !isValidTtl(req.ttl) : req.ttl >= 0n) reject(KeeperCode.BAD_ARGUMENTS);
  let path = requirePath(req.path);
  if (path.lastIndexOf('/') === -1 || path.includes('\0')) reject(KeeperCode.BAD_ARGUMENTS);
  const parentPath = parentOf(path);
  const acl = fixupACL(req.acl, ctx.authInfo, ctx.authSchemes) ?? reject(KeeperCode.INVALID_ACL);
  const parent = view.record(parentPath);
  checkACL(parent.acl, Perms.CREATE, ctx);
  if (isSequential) path += sequenceSuffix(parent.stat.cversion);
  validatePath(path);
  if (view.exists(path)) reject(KeeperCode.NODE_EXISTS);
  if (ephemeralKind(parent.stat.ephemeralOwner, ctx.extendedTypesEnabled) === 'normal') reject(KeeperCode.NO_CHILDREN_FOR_EPHEMERALS);
  const newCversion = (parent.stat.cversion + 1) | 0;
  // The node's owner follows the opcode's txn type (CreateContainerTxn, CreateTTLTxn, CreateTxn).
  let owner = 0n;
  if (op === 'createContainer') owner = CONTAINER_EPHEMERAL_OWNER;
  else if (op === 'createTTL') owner = isValidTtl(req.ttl) ? ttlOwner(req.ttl) : 0n;
  else if (isEphemeral) owner = ctx.sessionId;
  const parentAfter = dup(parent);
  parentAfter.childCount++;
  parentAfter.stat.cversion = newCversion;
  parentAfter.stat.pzxid = ctx.zxid;
  view.change(parentPath, parentAfter);
  const z = ctx.zxid;
  view.change(path, {
    stat: { czxid: z, mzxid: z, ctime: ctx.time, mtime: ctx.time, version: 0, cversion: 0, aversion: 0, ephemeralOwner: owner, pzxid: z },
    childCount: 0,
    acl,
  });
  return { type: 'create', op, path, data: req.data, acl, owner, parentCVersion: newCversion };
}

/** delete. */
export function prepDelete(view: PrepView, ctx: PrepContext, req: { path: string | null; version: number }, tree: DataTree): Txn {
  const path = requirePath(req.path);
  if (path.lastIndexOf('/') === -1 || path.includes('\0') || tree.isSpecialPath(path)) reject(KeeperCode.BAD_ARGUMENTS);
  const parentPath = parentOf(path);
  const parent = view.record(parentPath);
  checkACL(parent.acl, Perms.DELETE, ctx);
  const node = view.record(path);
  checkVersion(node.stat.version, req.version);
  if (node.childCount > 0) reject(KeeperCode.NOT_EMPTY);
  const parentAfter = dup(parent);
  parentAfter.childCount--;
  parentAfter.stat.pzxid = ctx.zxid;
  view.change(parentPath, parentAfter);
  view.change(path, null);
  return { type: 'delete', path };
}

/** deleteContainer (the reaper's): only empty containers and TTL nodes. */
export function prepDeleteContainer(view: PrepView, ctx: PrepContext, path: string, tree: DataTree): Txn {
  if (path.lastIndexOf('/') === -1 || path.includes('\0') || tree.isSpecialPath(path)) reject(KeeperCode.BAD_ARGUMENTS);
  const parentPath = parentOf(path);
  const node = view.record(path);
  if (node.childCount > 0) reject(KeeperCode.NOT_EMPTY);
  if (ephemeralKind(node.stat.ephemeralOwner, ctx.extendedTypesEnabled) === 'normal') reject(KeeperCode.BAD_VERSION);
  const parentAfter = dup(view.record(parentPath));
  parentAfter.childCount--;
  parentAfter.stat.pzxid = ctx.zxid;
  view.change(parentPath, parentAfter);
  view.change(path, null);
  return { type: 'delete', path };
}

/** setData. */
export function prepSetData(view: PrepView, ctx: PrepContext, req: { path: string | null; data: Uint8Array | null; version: number }): Txn {
  const path = requirePath(req.path);
  validatePath(path);
  const node = view.record(path);
  checkACL(node.acl, Perms.WRITE, ctx);
  const version = checkVersion(node.stat.version, req.version);
  const after = dup(node);
  after.stat.version = version;
  after.stat.mtime = ctx.time;
  after.stat.mzxid = ctx.zxid;
  view.change(path, after);
  return { type: 'setData', path, data: req.data, version };
}

/** setACL: the version is matched against aversion. */
export function prepSetACL(view: PrepView, ctx: PrepContext, req: { path: string | null; acl: ACL[] | null; version: number }): Txn {
  const path = requirePath(req.path);
  validatePath(path);
  const acl = fixupACL(req.acl, ctx.authInfo, ctx.authSchemes) ?? reject(KeeperCode.INVALID_ACL);
  const node = view.record(path);
  checkACL(node.acl, Perms.ADMIN, ctx);
  const version = checkVersion(node.stat.aversion, req.version);
  const after = dup(node);
  after.stat.aversion = version;
  after.acl = acl;
  view.change(path, after);
  return { type: 'setACL', path, acl, version };
}

/** check (multi only): READ and the version. */
export function prepCheck(view: PrepView, ctx: PrepContext, req: { path: string | null; version: number }): Txn {
  const path = requirePath(req.path);
  validatePath(path);
  const node = view.record(path);
  checkACL(node.acl, Perms.READ, ctx);
  const version = checkVersion(node.stat.version, req.version);
  return { type: 'check', path, version };
}
