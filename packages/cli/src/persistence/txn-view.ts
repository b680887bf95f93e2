/**
 * A decoded transaction as `zkts txnlog` shows it: one line a person can grep (zxid, time, session, cxid,
 * op, path, the fields that matter for that op) or one JSON object. It also says what the raw record cannot:
 * a closeSession with cxid 0 was the server expiring the session (clients number their requests from 1),
 * and a deleteContainer from session 0 was the server's container/TTL reaper.
 */
import { ephemeralOwnerKind, opName, serverCodeName, txnPath, txnPaths } from '@zkts/protocol/codec';
import type { SubTxn, TxnLogRecord, TxnRecord } from '@zkts/protocol/codec';

import { hexId } from '../ids.js';
import { permString } from '../output.js';

export interface TxnView {
  file: string;
  offset: number;
  zxid: bigint;
  /** ms since the epoch */
  time: number;
  session: bigint;
  cxid: number;
  op: string;
  /** The main path (a multi's first); undefined for session txns and errors. */
  path: string | undefined;
  /** Every path the txn touched (multi sub-ops, the ephemerals a closeSession deleted). */
  paths: string[];
  /** Op-specific facts, in display order. */
  fields: [string, string | number | boolean | string[]][];
  /** Who did it, when it was not a client request. */
  by: 'expiry' | 'reaper' | undefined;
  checksumOk: boolean;
  /** Client addresses of the session, when a capture told us (--clients). */
  clients: string[] | undefined;
}

/** C0 controls other than tab and line breaks (\t \n \v \f \r): such text is shown as hex. */
function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x08 || (c >= 0x0e && c <= 0x1f)) return true;
  }
  return false;
}

export function preview(data: Uint8Array | null, limit = 40): string {
  if (data === null) return 'null';
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(data);
    if (!hasControlCharacters(text)) return text.length > limit ? `${JSON.stringify(text.slice(0, limit))}…(${data.byteLength} bytes)` : JSON.stringify(text);
  } catch {
    // not UTF-8: hex below
  }
  const shown = Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, limit / 2)).toString('hex');
  return `0x${shown}${data.byteLength > limit / 2 ? `…(${data.byteLength} bytes)` : ''}`;
}

/** The codec's wire-level ACL (Jute strings may be null). */
type WireAcl = { perms: number; id: { scheme: string | null; id: string | null } };

export function aclText(acl: readonly WireAcl[] | null): string {
  if (acl === null) return 'null';
  return acl.map((a) => `${a.id.scheme ?? ''}:${a.id.id ?? ''}:${permString(a.perms)}`).join(',');
}

function subText(sub: SubTxn): string {
  const txn = sub.txn;
  if (txn === null) return `${opName(sub.type)}(${sub.data?.byteLength ?? 0} bytes)`;
  if (txn.kind === 'error') return `error ${serverCodeName(txn.err)}`;
  const path = txnPaths(txn)[0] ?? '';
  if (txn.kind === 'setData' || txn.kind === 'check') return `${opName(sub.type)} ${path} version=${txn.version}`;
  return `${opName(sub.type)} ${path}`;
}

function fieldsOf(txn: TxnRecord | null): TxnView['fields'] {
  if (txn === null) return [];
  switch (txn.kind) {
    case 'create':
    case 'createV0':
      return [['data', preview(txn.data)], ['acl', aclText(txn.acl)], ['ephemeral', txn.ephemeral]];
    case 'createContainer':
      return [['data', preview(txn.data)], ['acl', aclText(txn.acl)]];
    case 'createTTL':
      return [['data', preview(txn.data)], ['acl', aclText(txn.acl)], ['ttl', Number(txn.ttl)]];
    case 'setData':
      return [['data', preview(txn.data)], ['version', txn.version]];
    case 'setACL':
      return [['acl', aclText(txn.acl)], ['version', txn.version]];
    case 'check':
      return [['version', txn.version]];
    case 'setMaxChildren':
      return [['max', txn.max]];
    case 'createSession':
      return [['timeout', txn.timeOut]];
    case 'closeSession':
      return [['deleted', txnPaths(txn)]];
    case 'error':
      return [['err', serverCodeName(txn.err)]];
    case 'multi': {
      const subs = txn.txns ?? [];
      const failedAt = subs.findIndex((s) => s.txn?.kind === 'error' && s.txn.err !== 0);
      const failed = subs[failedAt]?.txn;
      const out: TxnView['fields'] = [['ops', subs.map(subText)]];
      if (failed?.kind === 'error') out.unshift(['failed', `op ${failedAt + 1}: ${serverCodeName(failed.err)} (nothing applied)`]);
      return out;
    }
    case 'delete':
      return [];
  }
}

export function txnView(file: string, record: TxnLogRecord, clients?: Map<bigint, string[]>): TxnView | undefined {
  const entry = record.entry;
  if (entry === null) return undefined;
  const { header, txn } = entry;
  const op = opName(header.type);
  const by = op === 'closeSession' && header.cxid === 0 ? 'expiry' : op === 'deleteContainer' && header.clientId === 0n ? 'reaper' : undefined;
  return {
    file,
    offset: record.offset,
    zxid: header.zxid,
    time: Number(header.time),
    session: header.clientId,
    cxid: header.cxid,
    op,
    path: txnPath(entry),
    paths: txnPaths(txn),
    fields: fieldsOf(txn),
    by,
    checksumOk: record.checksumOk,
    clients: clients?.get(header.clientId),
  };
}

function fieldText(value: TxnView['fields'][number][1]): string {
  if (Array.isArray(value)) return `[${value.join(', ')}]`;
  return String(value);
}

export function formatTxn(view: TxnView): string {
  const words = [`zxid=${hexId(view.zxid)}`, new Date(view.time).toISOString(), `session=${hexId(view.session)}`, `cxid=0x${(view.cxid >>> 0).toString(16)}`, view.op];
  if (view.path !== undefined) words.push(view.path);
  for (const [key, value] of view.fields) {
    if (key === 'ephemeral') {
      if (value === true) words.push('ephemeral');
      continue;
    }
    words.push(`${key}=${fieldText(value)}`);
  }
  if (view.by === 'expiry') words.push('(session expired: closed by the server)');
  if (view.by === 'reaper') words.push('(deleted by the server: empty container or expired TTL)');
  if (view.clients !== undefined) words.push(`client=${view.clients.join(',')}`);
  if (!view.checksumOk) words.push('[BAD CHECKSUM]');
  return words.join(' ');
}

export function txnRecordJson(view: TxnView): Record<string, unknown> {
  const record: Record<string, unknown> = {
    zxid: view.zxid.toString(),
    zxidHex: hexId(view.zxid),
    time: view.time,
    session: view.session.toString(),
    sessionHex: hexId(view.session),
    cxid: view.cxid,
    op: view.op,
    path: view.path ?? null,
    paths: view.paths,
  };
  for (const [key, value] of view.fields) record[key] = value;
  if (view.by !== undefined) record['by'] = view.by;
  if (view.clients !== undefined) record['clients'] = view.clients;
  record['checksumOk'] = view.checksumOk;
  record['file'] = view.file;
  record['offset'] = view.offset;
  return record;
}

/** What an ephemeralOwner means, for people. */
export function ownerText(owner: bigint): string {
  const kind = ephemeralOwnerKind(owner);
  switch (kind.kind) {
    case 'persistent':
      return 'persistent';
    case 'container':
      return 'container';
    case 'ttl':
      return `ttl=${kind.ttl}ms`;
    case 'ephemeral':
      return `ephemeral owner=${hexId(kind.session)}`;
  }
}
