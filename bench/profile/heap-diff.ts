// Where an idle session's heap goes: two .heapsnapshot files (one process with 0 and with N idle sessions,
// idle-memory.ts `snapshot`), their nodes' self sizes summed per type and constructor/closure name, the
// difference divided by N, largest first. Self sizes only (no retained sizes): each object is counted once, as
// the object it is, so the rows add up to the heap difference.
//
//   node bench/.build/profile/heap-diff.js <empty.heapsnapshot> <full.heapsnapshot> [n=1000] [top=40] [type:name]
//
// With a `type:name` (a row's key), what holds those objects in the full snapshot instead: the holder's
// type:name and the edge, per session.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Row {
  count: number;
  bytes: number;
}

function keyOf(s: Snapshot, i: number): string {
  const fields = s.snapshot.meta.node_fields;
  const type = s.snapshot.meta.node_types[0][s.nodes[i + fields.indexOf('type')] ?? 0] ?? '?';
  let name = s.strings[s.nodes[i + fields.indexOf('name')] ?? 0] ?? '?';
  if (type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'number' || type === 'bigint') name = '';
  if (name.length > 60) name = `${name.slice(0, 57)}...`;
  return `${type}:${name}`;
}

/** Per holder (type:name and edge) of the nodes whose key is `key`: how many such edges. */
function holders(s: Snapshot, key: string): Map<string, number> {
  const width = s.snapshot.meta.node_fields.length;
  const edgeCountAt = s.snapshot.meta.node_fields.indexOf('edge_count');
  const ef = s.snapshot.meta.edge_fields;
  const ew = ef.length;
  const edgeTypes = s.snapshot.meta.edge_types[0];
  const out = new Map<string, number>();
  let e = 0;
  for (let i = 0; i < s.nodes.length; i += width) {
    const count = s.nodes[i + edgeCountAt] ?? 0;
    for (let k = 0; k < count; k++, e += ew) {
      const to = s.edges[e + ef.indexOf('to_node')] ?? 0;
      if (keyOf(s, to) !== key) continue;
      const etype = edgeTypes[s.edges[e + ef.indexOf('type')] ?? 0] ?? '?';
      if (etype === 'weak') continue;
      const nameOrIndex = s.edges[e + ef.indexOf('name_or_index')] ?? 0;
      const edge = etype === 'element' || etype === 'hidden' ? `[${nameOrIndex}]` : (s.strings[nameOrIndex] ?? '?');
      const h = `${keyOf(s, i)} .${etype}:${edge}`;
      out.set(h, (out.get(h) ?? 0) + 1);
    }
  }
  return out;
}

function tally(file: string): Map<string, Row> {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const rows = new Map<string, Row>();
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + typeAt] ?? 0] ?? '?';
    let name = s.strings[s.nodes[i + nameAt] ?? 0] ?? '?';
    // Strings and numbers are named by their contents: one row per type says enough.
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'number' || type === 'bigint') name = '';
    if (name.length > 60) name = `${name.slice(0, 57)}...`;
    const key = `${type}:${name}`;
    const row = rows.get(key) ?? { count: 0, bytes: 0 };
    row.count++;
    row.bytes += s.nodes[i + sizeAt] ?? 0;
    rows.set(key, row);
  }
  return rows;
}

const [emptyFile, fullFile, nArg, topArg, holderKey] = process.argv.slice(2);
if (emptyFile === undefined || fullFile === undefined) throw new Error('usage: heap-diff <empty> <full> [n] [top]');
const n = Number(nArg ?? 1000);
const top = Number(topArg ?? 40);
if (holderKey !== undefined) {
  const rows = [...holders(JSON.parse(readFileSync(fullFile, 'utf8')) as Snapshot, holderKey)].sort((a, b) => b[1] - a[1]);
  console.log(`holders of ${holderKey} (edges per session)`);
  for (const [h, c] of rows.slice(0, top)) console.log(`${(c / n).toFixed(2).padStart(8)}  ${h}`);
  process.exit(0);
}
const empty = tally(emptyFile);
const full = tally(fullFile);
const diff: { key: string; count: number; bytes: number }[] = [];
for (const [key, row] of full) {
  const before = empty.get(key) ?? { count: 0, bytes: 0 };
  diff.push({ key, count: (row.count - before.count) / n, bytes: (row.bytes - before.bytes) / n });
}
diff.sort((a, b) => b.bytes - a.bytes);
const total = diff.reduce((sum, d) => sum + d.bytes, 0);
console.log(`per session: ${total.toFixed(0)} B of self sizes over ${n} sessions`);
console.log('   B/session  objects/session  type:name');
for (const d of diff.slice(0, top)) console.log(`${d.bytes.toFixed(1).padStart(12)} ${d.count.toFixed(2).padStart(16)}  ${d.key}`);
