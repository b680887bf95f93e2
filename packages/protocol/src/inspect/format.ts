/**
 * One line per conversation entry, for terminals and logs:
 *
 *   c2s connect sessionId=0x0 timeOut=30000 lastZxidSeen=0x0 passwd=<16 bytes> readOnly=false
 *   c2s xid=3 create /a data="hello" acl=[world:anyone=ALL] flags=EPHEMERAL
 *   s2c xid=3 zxid=0x7883 create /a OK path=/a
 *   s2c event NodeDataChanged /a state=SyncConnected
 *
 * zxids, session ids and ephemeral owners are shown in hex as ZooKeeper's own logs do.
 */
import { permsName } from '../codec/records/constants.js';
import type { ConversationEntry } from './conversation.js';
import type { JsonObject, JsonValue } from './json.js';

const HEX_KEYS = new Set(['zxid', 'czxid', 'mzxid', 'pzxid', 'sessionId', 'lastZxidSeen', 'relativeZxid', 'ephemeralOwner']);

/** Unsigned, as Java's Long.toHexString (a session id of server 128+ is a negative long); -1, "none", stays -1. */
function hex(decimal: string): string {
  try {
    const v = BigInt(decimal);
    return v === -1n ? '-1' : `0x${BigInt.asUintN(64, v).toString(16)}`;
  } catch {
    return decimal;
  }
}

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function formatStat(s: JsonObject): string {
  const parts = [
    `v=${String(s.version)}`,
    `cv=${String(s.cversion)}`,
    `av=${String(s.aversion)}`,
    `czxid=${hex(String(s.czxid))}`,
    `mzxid=${hex(String(s.mzxid))}`,
    `pzxid=${hex(String(s.pzxid))}`,
  ];
  if ('dataLength' in s) parts.push(`len=${String(s.dataLength)}`, `children=${String(s.numChildren)}`);
  if (s.ephemeralOwner !== '0') parts.push(`owner=${hex(String(s.ephemeralOwner))}`);
  return `{${parts.join(' ')}}`;
}

function formatBytes(b: JsonObject): string {
  if (b.redacted === true) return `<${String(b.length)} bytes>`;
  const more = b.truncated === true ? `…(${String(b.length)} bytes)` : '';
  if (typeof b.utf8 === 'string') return JSON.stringify(b.utf8) + more;
  return `0x${String(b.hex)}${more}`;
}

function formatValue(key: string, v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return HEX_KEYS.has(key) ? hex(v) : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((e) => formatValue('', e)).join(key === 'ops' || key === 'results' ? '; ' : ', ')}]`;
  if (key === 'stat') return formatStat(v);
  if (typeof v.length === 'number' && ('utf8' in v || 'hex' in v || 'redacted' in v)) return formatBytes(v);
  // ACL: world:anyone=ALL
  if (typeof v.perms === 'number' && isObject(v.id)) {
    return `${formatValue('', v.id.scheme ?? null)}:${formatValue('', v.id.id ?? null)}=${permsName(v.perms)}`;
  }
  // A failed multi result: `error BAD_VERSION`.
  if (v.op === 'error') return `error ${formatCode(v.err ?? null, v.errCode ?? null)}`;
  // A multi sub-op or result: its op name first, then its fields.
  if (typeof v.op === 'string') {
    const rest = formatFields(v, ['op']);
    return rest === '' ? v.op : `${v.op} ${rest}`;
  }
  return `{${formatFields(v, [])}}`;
}

function formatCode(name: JsonValue, code: JsonValue): string {
  return name === 'SERVER_ERROR' ? `SERVER_ERROR(${String(code)})` : String(name);
}

function formatFields(body: JsonObject, skip: readonly string[]): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (skip.includes(k)) continue;
    // A sub-op's own path reads best bare, right after its op name.
    parts.push(k === 'path' && skip.includes('op') && typeof v === 'string' ? v : `${k}=${formatValue(k, v)}`);
  }
  return parts.join(' ');
}

/** The one-line rendering of an entry. */
export function formatConversationEntry(e: ConversationEntry): string {
  const parts: string[] = [e.dir];
  const body = e.body ?? {};
  switch (e.kind) {
    case 'error':
      parts.push(`error: ${e.error ?? 'undecodable frame'}`);
      break;
    case 'connect':
    case 'connected':
      parts.push(e.kind);
      if (body.expired === true) parts.push('EXPIRED');
      parts.push(formatFields(body, ['expired']));
      break;
    case 'event':
      parts.push('event', String(body.type), formatValue('path', body.path ?? null), `state=${String(body.state)}`);
      break;
    default: {
      if (e.xid !== undefined) parts.push(`xid=${e.xid}`);
      if (e.dir === 's2c' && e.zxid !== undefined) parts.push(`zxid=${hex(e.zxid)}`);
      parts.push(e.op ?? '?');
      if (e.path !== undefined) parts.push(e.path ?? 'null');
      if (e.err !== undefined) parts.push(formatCode(e.err, e.errCode ?? null));
      // The request path is already shown; a reply's `path` (created, synced) is different and stays.
      const fields = formatFields(body, e.dir === 'c2s' ? ['path', 'prefixPath'] : []);
      if (fields !== '') parts.push(fields);
    }
  }
  if (e.notes !== undefined) parts.push(`(${e.notes.join('; ')})`);
  return parts.filter((p) => p !== '').join(' ');
}
