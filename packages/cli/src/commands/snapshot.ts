/**
 * `zkts snapshot FILE|DIR`: a ZooKeeper snapshot as the tree it holds — every node with its Stat, ACL,
 * ephemeral owner (or TTL / container) and a data preview — then the sessions it knew and a summary. What
 * SnapshotFormatter (zkSnapShotToolkit.sh) shows, plus ACLs and children counts, without Java. A DIR means
 * the snapshot the server would load. Damage is reported with the file offset after everything readable was printed.
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';

import { endsWithSnapshotSeal, ephemeralOwnerKind, readSnapshot, snapshotAcl } from '@zkts/protocol/codec';
import type { DataFileError, Snapshot, SnapshotNode } from '@zkts/protocol/codec';

import { intOption, listOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { hexId } from '../ids.js';
import { dataRecord, statRecord } from '../output.js';
import { resolveDataFiles, type DataFile } from '../persistence/files.js';
import { aclText, ownerText, preview } from '../persistence/txn-view.js';

const time = (ms: bigint): string => new Date(Number(ms)).toISOString();

function displayPath(node: SnapshotNode): string {
  return node.path === '' ? '/' : node.path;
}

function parentOf(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf('/')));
}

function under(path: string, prefix: string): boolean {
  return prefix === '/' || path === prefix || path.startsWith(`${prefix}/`);
}

/** Depth-first, siblings by name: parents before children (the file's order is the server's hash order). */
function treeOrder(a: SnapshotNode, b: SnapshotNode): number {
  const x = a.path.split('/');
  const y = b.path.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i] as string;
    const q = y[i] as string;
    if (p !== q) return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

function childCounts(snapshot: Snapshot): Map<string, number> {
  const counts = new Map<string, number>();
  for (const node of snapshot.nodes) if (node.path !== '') counts.set(parentOf(node.path), (counts.get(parentOf(node.path)) ?? 0) + 1);
  return counts;
}

async function load(file: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(file));
  } catch (error) {
    throw new CliError(ExitCode.NO_INPUT, `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = new Uint8Array(gunzipSync(bytes));
    } catch (error) {
      throw new CliError(ExitCode.DATA_ERROR, `${file}: cannot inflate the gzip snapshot: ${String(error)}`);
    }
  }
  return bytes;
}

/**
 * A FILE is read as given. A DIR means the snapshot the server would load: the newest one that ends with its
 * seal. Newer files without one (a crash while the server wrote them) are named on stderr and skipped; if no
 * file is sealed, the newest is read, so that its damage is shown.
 */
async function chooseSnapshot(context: CommandContext, input: string, files: readonly DataFile[]): Promise<{ file: string; bytes: Uint8Array }> {
  if (files.length === 1 && files[0]?.path === input) return { file: input, bytes: await load(input) };
  let newest: { file: string; bytes: Uint8Array } | undefined;
  const skipped: string[] = [];
  for (const { path: file } of [...files].reverse()) {
    const bytes = await load(file);
    newest ??= { file, bytes };
    if (endsWithSnapshotSeal(bytes)) {
      for (const name of skipped) {
        context.out.error(`snapshot: skipped ${name}: it does not end with a seal (cut short while the server wrote it); ZooKeeper skips it too`, { code: 'SNAPSHOT_UNSEALED' });
      }
      return { file, bytes };
    }
    skipped.push(file);
  }
  // resolveDataFiles refuses a directory without snapshots, so there was a newest.
  return newest as { file: string; bytes: Uint8Array };
}

export const snapshot: Command = {
  name: 'snapshot',
  summary: 'print a server snapshot: the tree with Stats, ACLs and ephemeral owners, sessions, a summary',
  usage: 'FILE|DIR [--path PREFIX] [--preview BYTES]',
  details:
    'FILE is a snapshot.* file (gzip-compressed ones too); DIR is a dataDir or its version-2/, whose newest\n' +
    'sealed snapshot is read: the one the server would load (newer files cut short by a crash are named on\n' +
    'stderr and skipped). Each node: path, what kind it is (ephemeral with its owner session, ttl, container)\n' +
    'and a data preview, then its Stat, children count and ACL. Then the sessions (timeout, ephemerals) and\n' +
    'a summary. Nodes are printed depth-first, siblings sorted (the file holds them in the server\'s hash\n' +
    'order). A snapshot is fuzzy: it was taken while transactions went on, so it reflects zxids up to the\n' +
    'one in its name or a little later; `zkts txnlog DIR --zxid FROM..` gives what happened after.\n' +
    'Damage (truncated, bad checksum, broken tree) goes to stderr with the file offset; exit 65 then. A --path\n' +
    'that is not in the snapshot is said on stderr, exit 2 (everything else is printed as usual).',
  options: {
    path: { type: 'string', arg: 'PREFIX', description: 'only nodes at or under this path (repeatable)', multiple: true },
    preview: { type: 'string', arg: 'BYTES', description: 'how much data to show per node (default 40)' },
  },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const input = positional(context, 0, 'FILE or DIR');
    const files = await resolveDataFiles([input], 'snapshot');
    const limit = intOption(context.args, 'preview', 0) ?? 40;
    const prefixes = listOption(context.args, 'path').map((p) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p));
    const { file, bytes } = await chooseSnapshot(context, input, files);
    let snap: Snapshot;
    try {
      snap = readSnapshot(bytes, { file });
    } catch (error) {
      if ((error as DataFileError).code?.startsWith('FILE_') === true) throw new CliError(ExitCode.DATA_ERROR, (error as DataFileError).message);
      throw error;
    }
    const { out } = context;
    const children = childCounts(snap);
    const shown = snap.nodes.filter((n) => prefixes.length === 0 || prefixes.some((p) => under(displayPath(n), p))).sort(treeOrder);
    for (const node of shown) {
      const path = displayPath(node);
      const stat = node.stat;
      const acl = snapshotAcl(snap, node.acl);
      const kind = ephemeralOwnerKind(stat.ephemeralOwner);
      const numChildren = children.get(node.path) ?? 0;
      const dataLength = node.data?.byteLength ?? 0;
      const record = {
        type: 'node',
        path,
        kind: kind.kind,
        ...(kind.kind === 'ephemeral' ? { owner: hexId(kind.session) } : {}),
        ...(kind.kind === 'ttl' ? { ttl: Number(kind.ttl) } : {}),
        ...statRecord({ ...stat, dataLength, numChildren }),
        acl: acl?.map((a) => ({ scheme: a.id.scheme, id: a.id.id, perms: a.perms })) ?? null,
        aclKey: node.acl.toString(),
        ...dataRecord(node.data),
      };
      out.emit(record, () => {
        const kindText = kind.kind === 'persistent' ? '' : ` [${ownerText(stat.ephemeralOwner)}]`;
        const head = `${path}${kindText}${dataLength > 0 ? ` data=${preview(node.data, limit)}` : ''}`;
        const detail =
          `    czxid=${hexId(stat.czxid)} ctime=${time(stat.ctime)} mzxid=${hexId(stat.mzxid)} mtime=${time(stat.mtime)} pzxid=${hexId(stat.pzxid)}\n` +
          `    version=${stat.version} cversion=${stat.cversion} aversion=${stat.aversion} dataLength=${dataLength} numChildren=${numChildren} ` +
          `acl=${acl === undefined ? `missing(${node.acl})` : aclText(acl)}`;
        return `${head}\n${detail}`;
      });
    }
    for (const session of snap.sessions) {
      const owned = snap.nodes.filter((n) => n.stat.ephemeralOwner === session.id).map(displayPath);
      out.emit(
        { type: 'session', id: session.id.toString(), idHex: hexId(session.id), timeout: session.timeout, ephemerals: owned },
        `session ${hexId(session.id)} timeout=${session.timeout}ms ephemerals=[${owned.join(', ')}]`,
      );
    }
    const kinds = { ephemeral: 0, ttl: 0, container: 0, persistent: 0 };
    for (const node of snap.nodes) kinds[ephemeralOwnerKind(node.stat.ephemeralOwner).kind]++;
    const dataBytes = snap.nodes.reduce((n, node) => n + (node.data?.byteLength ?? 0), 0);
    const digest = snap.digest;
    const checksum = snap.seal === null ? 'missing' : snap.seal.ok ? 'ok' : 'BAD';
    const summary = {
      type: 'summary',
      file,
      nodes: snap.nodes.length,
      shown: shown.length,
      ...kinds,
      dataBytes,
      sessions: snap.sessions.length,
      acls: snap.acls.length,
      checksum,
      digest: digest === null ? null : { zxid: digest.zxid.toString(), version: digest.digestVersion, value: String(digest.digest), checksum: digest.seal?.ok === true ? 'ok' : 'BAD' },
      complete: snap.complete,
      problems: snap.problems.length,
    };
    out.emit(summary, () =>
      `summary: ${snap.nodes.length} nodes (${kinds.ephemeral} ephemeral, ${kinds.ttl} ttl, ${kinds.container} container), ${dataBytes} data bytes, ` +
      `${snap.sessions.length} session(s), ${snap.acls.length} ACL list(s); checksum ${checksum}` +
      (digest === null ? '' : `; digest at zxid ${hexId(digest.zxid)} ${digest.seal?.ok === true ? 'ok' : 'BAD'}`) +
      (snap.complete ? '' : '; INCOMPLETE'),
    );
    for (const problem of snap.problems) out.error(`snapshot: ${problem.message} [${problem.code}]`);
    // A --path that matched nothing is most likely a typo or the wrong snapshot: an empty listing must not pass for an answer.
    const missing = prefixes.filter((p) => p !== '/' && !snap.nodes.some((n) => displayPath(n) === p));
    const notFound = `--path ${missing.join(', ')}: not in the snapshot ${file}${snap.complete ? '' : ' (which is incomplete)'}`;
    if (snap.problems.length > 0) {
      if (missing.length > 0) out.error(`snapshot: ${notFound}`, { code: 'NO_NODE' });
      return ExitCode.DATA_ERROR;
    }
    if (missing.length > 0) throw new CliError(ExitCode.NO_NODE, notFound, { details: { code: 'NO_NODE', missing } });
    return ExitCode.OK;
  },
};
