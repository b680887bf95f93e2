/**
 * `zkts txnlog DIR|FILE…`: a ZooKeeper server's transaction logs, one line per transaction — the answer to
 * "who deleted my node, from which session, and when?" without the server's Java tools. Reads a dataDir
 * (or its version-2/), or log files; filters by path subtree, session, zxid range and op; `--follow` keeps
 * reading a live server's newest log. Damage (truncation, bad checksum, …) is reported with the file offset
 * after everything valid was printed, and the exit status is then 65.
 */
import { stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

import type { DataFileError, TxnLogRecord } from '@zkts/protocol/codec';

import { flag, intOption, listOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { hexId } from '../ids.js';
import { filesInDirectory, resolveDataFiles } from '../persistence/files.js';
import type { DataFile } from '../persistence/files.js';
import { TxnLogReader } from '../persistence/log-reader.js';
import { formatTxn, txnRecordJson, txnView } from '../persistence/txn-view.js';
import type { TxnView } from '../persistence/txn-view.js';
import { decodeTraffic, loadInput, sessionClients } from '../traffic.js';

export function parseId(text: string, what: string): bigint {
  if (!/^(0x[0-9a-f]+|\d+)$/i.test(text)) throw new UsageError(`${what} must be a number (0x… for hex), got '${text}'`);
  return BigInt(text.toLowerCase());
}

/** `FROM..TO` (either end may be left out) or one zxid; decimal or 0x hex. */
export function parseZxidRange(text: string): { from: bigint | undefined; to: bigint | undefined } {
  const [from, to, extra] = text.split('..');
  if (extra !== undefined) throw new UsageError(`--zxid takes FROM..TO, got '${text}'`);
  if (to === undefined) {
    const one = parseId(text, '--zxid');
    return { from: one, to: one };
  }
  return { from: from === '' || from === undefined ? undefined : parseId(from, '--zxid'), to: to === '' ? undefined : parseId(to, '--zxid') };
}

export interface TxnFilter {
  paths: string[];
  sessions: bigint[];
  from: bigint | undefined;
  to: bigint | undefined;
  ops: string[];
}

function underPath(path: string, prefix: string): boolean {
  if (prefix === '/' || path === prefix) return true;
  return path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

export function matches(view: TxnView, filter: TxnFilter): boolean {
  if (filter.from !== undefined && view.zxid < filter.from) return false;
  if (filter.to !== undefined && view.zxid > filter.to) return false;
  if (filter.sessions.length > 0 && !filter.sessions.includes(view.session)) return false;
  if (filter.ops.length > 0 && !filter.ops.includes(view.op.toLowerCase())) return false;
  if (filter.paths.length > 0 && !view.paths.some((p) => filter.paths.some((prefix) => underPath(p, prefix)))) return false;
  return true;
}

function filterFrom(context: CommandContext): TxnFilter {
  const zxid = listOption(context.args, 'zxid');
  const range = zxid.length === 0 ? { from: undefined, to: undefined } : parseZxidRange(zxid[zxid.length - 1] as string);
  return {
    paths: listOption(context.args, 'path').map((p) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p)),
    sessions: listOption(context.args, 'session').flatMap((s) => s.split(',')).map((s) => parseId(s, '--session')),
    ...range,
    ops: listOption(context.args, 'op').flatMap((o) => o.split(',')).map((o) => o.trim().toLowerCase()).filter((o) => o !== ''),
  };
}

async function clientsFrom(context: CommandContext): Promise<Map<bigint, string[]> | undefined> {
  const files = listOption(context.args, 'clients');
  if (files.length === 0) return undefined;
  const port = intOption(context.args, 'port', 1) ?? 2181;
  const out = new Map<bigint, string[]>();
  for (const file of files) {
    for (const [id, clients] of sessionClients(decodeTraffic(await loadInput(context, file), file, port))) {
      out.set(id, [...new Set([...(out.get(id) ?? []), ...clients])]);
    }
  }
  return out;
}

export const txnlog: Command = {
  name: 'txnlog',
  summary: 'print a server\'s transaction logs: who changed what, from which session, when',
  usage: 'DIR|FILE... [--path PREFIX] [--session ID] [--zxid FROM..TO] [--op OP] [--follow]',
  details:
    'DIR is a server\'s dataDir (or its version-2/ directory); its log.* files are read oldest first. One\n' +
    'line per transaction: zxid, time (UTC), session, cxid, op, path and the fields that matter (data,\n' +
    'ACL, version, ttl, the ephemerals a closeSession deleted, a multi\'s ops and why it failed). A\n' +
    'closeSession with cxid 0 is the server expiring the session; a deleteContainer from session 0x0 is\n' +
    'the server reaping an empty container or an expired TTL node. Filters combine (all must match);\n' +
    '--path matches the subtree and also finds a node deleted with its session or inside a multi.\n' +
    'The log does not record client addresses: --clients FILE (a pcap capture or `zkts proxy --record`\n' +
    'transcript) adds them from the handshakes it saw. Damage (truncated file, bad checksum, missing\n' +
    'end marker) is reported on stderr with the file offset after every valid transaction; exit 65 then.\n' +
    '\n' +
    'Who deleted my node?\n' +
    '  zkts txnlog /var/lib/zookeeper --path /app/config --op delete,deleteContainer,closeSession,multi\n' +
    '  zkts txnlog /var/lib/zookeeper --session 0x100000951490002     # what else that session did\n' +
    '  zkts snapshot /var/lib/zookeeper --path /app                   # the tree as of the last snapshot',
  options: {
    path: { type: 'string', arg: 'PREFIX', description: 'only transactions touching this path or below (repeatable)', multiple: true },
    session: { type: 'string', arg: 'ID', description: 'only this session (0x hex or decimal; repeatable, or comma-separated)', multiple: true },
    zxid: { type: 'string', arg: 'FROM..TO', description: 'only zxids in this inclusive range (either end may be left out)', multiple: true },
    op: { type: 'string', arg: 'OP', description: 'only these ops, e.g. delete,closeSession (repeatable, or comma-separated)', multiple: true },
    follow: { type: 'boolean', short: 'f', description: 'keep reading the newest log as the server writes it (until Ctrl-C)' },
    interval: { type: 'string', arg: 'MS', description: 'with --follow: how often to look for new transactions (default 500)' },
    clients: { type: 'string', arg: 'FILE', description: 'a capture or transcript to learn session → client address from (repeatable)', multiple: true },
    port: { type: 'string', arg: 'PORT', description: 'the server port in --clients captures (default 2181)' },
  },
  async run(context: CommandContext): Promise<number> {
    const inputs = context.args.positionals;
    if (inputs.length === 0) throw new UsageError('missing DIR or FILE');
    const filter = filterFrom(context);
    const follow = flag(context.args, 'follow');
    const interval = intOption(context.args, 'interval', 10) ?? 500;
    const clients = await clientsFrom(context);
    const { out } = context;
    const totals = { read: 0, shown: 0, problems: 0, first: undefined as bigint | undefined, last: undefined as bigint | undefined };
    const sink = {
      record(file: string, record: TxnLogRecord): void {
        const view = txnView(file, record, clients);
        if (view === undefined) return;
        totals.read++;
        totals.first ??= view.zxid;
        totals.last = view.zxid;
        if (!matches(view, filter)) return;
        totals.shown++;
        out.emit(txnRecordJson(view), () => formatTxn(view));
      },
      problem(error: DataFileError): void {
        totals.problems++;
        out.error(`txnlog: ${error.message} [${error.code}]`);
      },
    };
    const reader = new TxnLogReader();
    // Following one directory: logs may not exist yet, and new ones appear when the server rolls its log.
    const followDir = follow && inputs.length === 1 && (await isDirectory(inputs[0] as string)) ? (inputs[0] as string) : undefined;
    let files = followDir === undefined ? await resolveDataFiles(inputs, 'log') : await filesInDirectory(followDir, 'log');
    const readAll = async (live: boolean): Promise<void> => {
      for (const [index, file] of files.entries()) await reader.read(file.path, !live || index < files.length - 1, sink);
    };
    await readAll(follow);
    if (follow) {
      out.note(`txnlog: following ${files[files.length - 1]?.path ?? inputs.join(' ')} (Ctrl-C to stop)`);
      while (!context.signal.aborted) {
        try {
          await sleep(interval, undefined, { signal: context.signal });
        } catch {
          break;
        }
        if (followDir !== undefined) files = await refresh(followDir, files);
        await readAll(true);
      }
    }
    const range = totals.first === undefined ? '' : `, zxid ${hexId(totals.first)}..${hexId(totals.last ?? totals.first)}`;
    out.note(`${totals.shown} of ${totals.read} transaction(s) shown from ${files.length} log file(s)${range}${totals.problems > 0 ? `; ${totals.problems} problem(s)` : ''}`);
    return totals.problems > 0 ? ExitCode.DATA_ERROR : ExitCode.OK;
  },
};

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function refresh(dir: string, known: DataFile[]): Promise<DataFile[]> {
  try {
    const found = await filesInDirectory(dir, 'log');
    return found.length >= known.length ? found : known;
  } catch {
    return known;
  }
}
