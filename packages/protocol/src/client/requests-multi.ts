/**
 * multi and multiRead: validating each op into its wire form, and turning the per-op results into the
 * client's (a failed multi is one MultiError; a failed multiRead op is an error entry in its slot).
 */
import { InvalidArgumentError, ServerError, errorFromKeeperCode } from '../errors/errors.js';
import { KeeperCode } from '../errors/codes.js';
import { OpCode } from '../codec/records/constants.js';
import { firstMultiError, type MultiOp } from '../codec/multi.js';
import { validateAcl } from './acl.js';
import type { AclFor } from './acl-provider.js';
import type { Chroot } from './chroot.js';
import { MultiError } from './multi-error.js';
import { validatePath } from './paths.js';
import { copy, strings } from './reply-bytes.js';
import { fromWireStat } from './stat.js';
import type { RequestSpec } from './request.js';
import { ok, responseRecord, spec } from './requests.js';
import type { Op, OpResult, ReadResult } from './types.js';
import { checkCreateMode, checkVersion, toBytes } from './validation.js';


export interface PreparedOp {
  wire: MultiOp;
  kind: Op['op'];
  path: string;
}

/** Validates one multi op and turns it into its wire form (server path, create2-style creates). */
export function prepareMultiOp(op: Op, index: number, root: Chroot, maxPacket: number, aclFor: AclFor): PreparedOp {
  const where = (e: unknown): never => {
    if (e instanceof InvalidArgumentError) throw new InvalidArgumentError(e.argument, `op #${index}: ${e.message}`);
    throw e;
  };
  try {
    switch (op?.op) {
      case 'create': {
        const mode = checkCreateMode(op.mode, op.ttl);
        validatePath(op.path, { sequential: mode.sequential });
        const acl = op.acl ?? aclFor(op.path);
        validateAcl(acl);
        const base = { path: root.toServer(op.path), data: toBytes(op.data, maxPacket), acl, flags: mode.flags };
        const wire: MultiOp = mode.container
          ? { op: 'createContainer', ...base }
          : mode.ttl !== undefined
            ? { op: 'createTTL', ...base, ttl: BigInt(mode.ttl) }
            : { op: 'create2', ...base };
        return { wire, kind: 'create', path: op.path };
      }
      case 'delete':
        validatePath(op.path);
        return { wire: { op: 'delete', path: root.toServer(op.path), version: checkVersion(op.version) }, kind: 'delete', path: op.path };
      case 'setData':
        validatePath(op.path);
        return {
          wire: { op: 'setData', path: root.toServer(op.path), data: toBytes(op.data, maxPacket), version: checkVersion(op.version) },
          kind: 'setData',
          path: op.path,
        };
      case 'check':
        validatePath(op.path);
        return { wire: { op: 'check', path: root.toServer(op.path), version: checkVersion(op.version) }, kind: 'check', path: op.path };
      default:
        throw new InvalidArgumentError('ops', `unknown multi op ${JSON.stringify((op as { op?: unknown } | undefined)?.op)}`);
    }
  } catch (e) {
    return where(e);
  }
}

/** multi and multiRead answer the same record. */
const MULTI_RESPONSE = responseRecord(OpCode.multi);

export function multi(ops: PreparedOp[], root: Chroot): RequestSpec<OpResult[]> {
  const wire = ops.map((o) => o.wire);
  return spec(OpCode.multi, undefined, wire, multiResults(ops, root), wire);
}

function multiResults(ops: PreparedOp[], root: Chroot): RequestSpec<OpResult[]>['decode'] {
  return (h, r) => {
    ok(h, undefined);
    const results = MULTI_RESPONSE(r);
    const failure = firstMultiError(results);
    if (failure !== undefined) {
      const codes = results.map((res) => (res.op === 'error' ? res.err : 0));
      throw new MultiError(failure.index, failure.err, codes, ops[failure.index]?.path);
    }
    return results.map((res): OpResult => {
      switch (res.op) {
        case 'create':
          return { op: 'create', path: root.toClient(res.path ?? '') };
        case 'create2':
        case 'createContainer':
        case 'createTTL':
          return { op: 'create', path: root.toClient(res.path ?? ''), stat: fromWireStat(res.stat) };
        case 'delete':
          return { op: 'delete' };
        case 'check':
          return { op: 'check' };
        case 'setData':
          return { op: 'setData', stat: fromWireStat(res.stat) };
        default:
          throw new ServerError(KeeperCode.MARSHALLING_ERROR, undefined, { cause: new Error(`unexpected multi result ${res.op}`) });
      }
    });
  };
}

export function multiRead(ops: { op: 'getData' | 'getChildren'; path: string; serverPath: string }[]): RequestSpec<ReadResult[]> {
  const wire: MultiOp[] = ops.map((o) => ({ op: o.op, path: o.serverPath, watch: false }));
  return spec(OpCode.multiRead, undefined, wire, readResults(ops), wire);
}

function readResults(ops: { path: string }[]): RequestSpec<ReadResult[]>['decode'] {
  return (h, r) => {
    ok(h, undefined);
    return MULTI_RESPONSE(r).map((res, i): ReadResult => {
      switch (res.op) {
        case 'getData':
          return { op: 'getData', data: copy(res.data), stat: fromWireStat(res.stat) };
        case 'getChildren':
          return { op: 'getChildren', children: strings(res.children) };
        case 'error':
          return { op: 'error', error: errorFromKeeperCode(res.err, ops[i]?.path) };
        default:
          throw new ServerError(KeeperCode.MARSHALLING_ERROR, undefined, { cause: new Error(`unexpected multiRead result ${res.op}`) });
      }
    });
  };
}
