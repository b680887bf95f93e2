/**
 * The four-letter words and their answers as ZooKeeper 3.8's FourLetterCommands / command classes print them:
 * ruok, srvr, stat, mntr, cons, wchc, wchp, wchs, dump, conf, envi, isro, crst, srst, dirs. A word outside
 * the whitelist is answered "<word> is not executed because it is not in the whitelist."; gtmk, stmk and hash
 * are recognized (so their bytes are not read as a frame length) and answered with nothing.
 */
import { hostname, userInfo, freemem, totalmem, type, arch, release } from 'node:os';

import type { ServerCore } from '../requests/core.js';
import { FOUR_LETTER_WORDS } from '../options.js';
import type { ConnectionStats } from './stats.js';
import { javaDouble } from './stats.js';

/** What the words need of a live connection. */
export interface LiveConnection {
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly sessionId: bigint;
  readonly sessionTimeout: number;
  readonly stats: ConnectionStats;
}

/** ZooKeeper's Version.getFullVersion() shape: this server reports itself as 3.8.0. */
export const ZK_VERSION = '3.8.0-zkts, built on 1970-01-01 00:00 UTC';

const hex = (v: bigint | number): string => `0x${BigInt.asUintN(64, BigInt(v)).toString(16)}`;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/** java.util.Date.toString in UTC: `Wed Nov 25 22:30:03 UTC 2026`. */
export function javaDate(ms: number): string {
  const d = new Date(ms);
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${time} UTC ${d.getUTCFullYear()}`;
}

/** ServerCnxn.dumpConnectionInfo: ` /ip:port[ops](queued=0,recved=…,sent=…[,sid=…,…])`. */
function connectionInfo(c: LiveConnection, self: LiveConnection, brief: boolean): string {
  const s = c.stats;
  const host = c.remoteAddress.includes(':') ? `[${c.remoteAddress}]` : c.remoteAddress;
  let line = ` /${host}:${c.remotePort}[${c === self ? 0 : 1}](queued=0,recved=${s.received},sent=${s.sent}`;
  if (!brief && c.sessionId !== 0n) {
    const l = s.latency;
    line += `,sid=${hex(c.sessionId)},lop=${s.lastOp},est=${s.established},to=${c.sessionTimeout}`;
    if (s.lastCxid >= 0) line += `,lcxid=${hex(s.lastCxid)}`;
    line += `,lzxid=${hex(s.lastZxid)},lresp=${s.lastResponseElapsed},llat=${l.last},minlat=${l.minimum},avglat=${Math.trunc(l.average())},maxlat=${l.max}`;
  }
  return `${line})\n`;
}

/** DataTree's approximate data size: every path's length plus its data's, the root under both its names. */
function approximateDataSize(core: ServerCore): number {
  let size = 0;
  const visit = (path: string): void => {
    const node = core.tree.getNode(path);
    if (node === undefined) return;
    size += path.length + (node.data?.length ?? 0);
    for (const child of core.tree.childrenOf(node)) visit(path === '/' ? `/${child}` : `${path}/${child}`);
  };
  visit('/');
  return size;
}

function ephemeralsCount(core: ServerCore): number {
  let n = 0;
  for (const sid of core.tree.sessionsWithEphemerals()) n += core.tree.ephemeralsOf(sid).length;
  return n;
}

/** The lines srvr and stat share, after the version (and stat's clients). */
function serverSummary(core: ServerCore, live: ReadonlySet<LiveConnection>): string {
  const st = core.stats;
  return (
    `Latency min/avg/max: ${st.latency.minimum}/${javaDouble(st.latency.average())}/${st.latency.max}\n` +
    `Received: ${st.received}\nSent: ${st.sent}\nConnections: ${live.size}\nOutstanding: 0\n` +
    `Zxid: ${hex(core.tree.lastZxid)}\nMode: standalone\nNode count: ${core.tree.pathCount}\n`
  );
}

function mntr(core: ServerCore, live: ReadonlySet<LiveConnection>): string {
  const st = core.stats;
  const sessions = [...core.sessions.all()].length;
  const rows: [string, string | number][] = [
    ['zk_version', ZK_VERSION],
    ['zk_server_state', 'standalone'],
    ['zk_ephemerals_count', ephemeralsCount(core)],
    ['zk_num_alive_connections', live.size],
    ['zk_avg_latency', javaDouble(st.latency.average())],
    ['zk_outstanding_requests', 0],
    ['zk_znode_count', core.tree.pathCount],
    ['zk_global_sessions', sessions],
    ['zk_non_mtls_remote_conn_count', 0],
    ['zk_last_client_response_size', st.sent === 0 ? -1 : st.lastResponseSize],
    ['zk_packets_sent', st.sent],
    ['zk_packets_received', st.received],
    ['zk_max_client_response_size', st.sent === 0 ? -1 : st.maxResponseSize],
    ['zk_connection_drop_probability', '0.0'],
    ['zk_watch_count', core.watches.data.size + core.watches.child.size],
    ['zk_auth_failed_count', st.authFailed],
    ['zk_min_latency', st.latency.minimum],
    ['zk_approximate_data_size', approximateDataSize(core)],
    ['zk_local_sessions', 0],
    ['zk_uptime', Math.max(0, Math.trunc(core.options.clock.now() - st.startTime))],
    ['zk_max_latency', st.latency.max],
    ['zk_outstanding_tls_handshake', 0],
    ['zk_min_client_response_size', st.sent === 0 ? -1 : st.minResponseSize],
    ['zk_non_mtls_local_conn_count', 0],
  ];
  return rows.map(([k, v]) => `${k}\t${v}\n`).join('');
}

/** Data watches by session (wchc) or by path (wchp), as WatchManager.dumpWatches prints them. */
function dumpWatches(core: ServerCore, byPath: boolean): string {
  let out = '';
  if (byPath) {
    for (const [path, watchers] of core.watches.data.entries()) {
      out += `${path}\n`;
      for (const w of watchers) out += `\t${hex((w as Partial<LiveConnection>).sessionId ?? 0n)}\n`;
    }
  } else {
    const bySession = new Map<bigint, string[]>();
    for (const [path, watchers] of core.watches.data.entries()) {
      for (const w of watchers) {
        const sid = (w as Partial<LiveConnection>).sessionId ?? 0n;
        const list = bySession.get(sid) ?? [];
        list.push(path);
        bySession.set(sid, list);
      }
    }
    for (const [sid, paths] of bySession) out += `${hex(sid)}\n${paths.map((p) => `\t${p}\n`).join('')}`;
  }
  return `${out}\n`;
}

function wchs(core: ServerCore): string {
  const watchers = new Set<unknown>();
  let paths = 0;
  let total = 0;
  for (const [, ws] of core.watches.data.entries()) {
    paths++;
    for (const w of ws) {
      watchers.add(w);
      total++;
    }
  }
  return `${watchers.size} connections watching ${paths} paths\nTotal watches:${total}\n`;
}

/** dump: sessions by expiry bucket, ephemerals by session, connections by expiry. */
function dump(core: ServerCore, live: ReadonlySet<LiveConnection>): string {
  const buckets = new Map<number, bigint[]>();
  let count = 0;
  for (const s of core.sessions.all()) {
    const list = buckets.get(s.expiresAt) ?? [];
    list.push(s.id);
    buckets.set(s.expiresAt, list);
    count++;
  }
  let out = `SessionTracker dump:\nSession Sets (${buckets.size})/(${count}):\n`;
  for (const [at, ids] of [...buckets].sort((a, b) => a[0] - b[0])) {
    out += `${ids.length} expire at ${javaDate(at)}:\n${ids.map((id) => `\t${hex(id)}\n`).join('')}`;
  }
  const owners = core.tree.sessionsWithEphemerals();
  out += `ephemeral nodes dump:\nSessions with Ephemerals (${owners.length}):\n`;
  for (const sid of owners) out += `${hex(sid)}:\n${core.tree.ephemeralsOf(sid).map((p) => `\t${p}\n`).join('')}`;
  const cnxns = new Map<number, LiveConnection[]>();
  for (const c of live) {
    const at = Math.ceil((Math.max(c.stats.lastResponseTime, c.stats.established) + (c.sessionTimeout || 10_000)) / 1000) * 1000;
    const list = cnxns.get(at) ?? [];
    list.push(c);
    cnxns.set(at, list);
  }
  out += `Connections dump:\nConnections Sets (${cnxns.size})/(${live.size}):\n`;
  for (const [at, cs] of [...cnxns].sort((a, b) => a[0] - b[0])) {
    out += `${cs.length} expire at ${javaDate(at)}:\n`;
    for (const c of cs) out += `\tip: /${c.remoteAddress}:${c.remotePort} sessionId: ${hex(c.sessionId)}\n`;
  }
  return out;
}

function conf(core: ServerCore): string {
  const o = core.options;
  return (
    `clientPort=${core.stats.clientPort}\nsecureClientPort=${core.stats.securePort}\n` +
    `dataDir=\ndataDirSize=0\ndataLogDir=\ndataLogSize=0\ntickTime=${o.tickTime}\nmaxClientCnxns=0\n` +
    `minSessionTimeout=${o.minSessionTimeout}\nmaxSessionTimeout=${o.maxSessionTimeout}\nclientPortListenBacklog=-1\nserverId=0\n`
  );
}

function envi(): string {
  let user = '';
  let home = '';
  try {
    ({ username: user, homedir: home } = userInfo());
  } catch {
    // No passwd entry for this uid: leave them empty.
  }
  const mb = (bytes: number): string => `${Math.trunc(bytes / 1024 / 1024)}MB`;
  const rows: [string, string][] = [
    ['zookeeper.version', ZK_VERSION],
    ['host.name', hostname()],
    ['node.version', process.version],
    ['os.name', type()],
    ['os.arch', arch()],
    ['os.version', release()],
    ['user.name', user],
    ['user.home', home],
    ['user.dir', process.cwd()],
    ['os.memory.free', mb(freemem())],
    ['os.memory.max', mb(totalmem())],
    ['os.memory.total', mb(totalmem())],
  ];
  return `Environment:\n${rows.map(([k, v]) => `${k}=${v}\n`).join('')}`;
}

/** The word in the first four bytes, when they are one ZooKeeper knows. */
export function knownWord(head: Uint8Array): string | undefined {
  if (head.length < 4) return undefined;
  const word = Buffer.from(head.buffer, head.byteOffset, 4).toString('latin1');
  return FOUR_LETTER_WORDS.includes(word) ? word : undefined;
}

/** The answer to `word`, asked on connection `self` (one of `live`). */
export function answer(core: ServerCore, word: string, self: LiveConnection, live: ReadonlySet<LiveConnection>): string {
  if (!core.options.fourLetterWords.has(word)) return `${word} is not executed because it is not in the whitelist.\n`;
  switch (word) {
    case 'ruok':
      return 'imok';
    case 'srvr':
      return `Zookeeper version: ${ZK_VERSION}\n${serverSummary(core, live)}`;
    case 'stat':
      return `Zookeeper version: ${ZK_VERSION}\nClients:\n${[...live].map((c) => connectionInfo(c, self, true)).join('')}\n${serverSummary(core, live)}`;
    case 'cons':
      return `${[...live].map((c) => connectionInfo(c, self, false)).join('')}\n`;
    case 'mntr':
      return mntr(core, live);
    case 'wchc':
      return dumpWatches(core, false);
    case 'wchp':
      return dumpWatches(core, true);
    case 'wchs':
      return wchs(core);
    case 'dump':
      return dump(core, live);
    case 'conf':
      return conf(core);
    case 'envi':
      return envi();
    case 'isro':
      return 'rw';
    case 'dirs':
      return 'datadir_size: 0\nlogdir_size: 0\n';
    case 'crst':
      for (const c of live) c.stats.reset();
      return 'Connection stats reset.\n';
    case 'srst':
      core.stats.reset();
      return 'Server stats reset.\n';
    default:
      return '';
  }
}
