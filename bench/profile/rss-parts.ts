// Where RSS per idle session sits, in parts: one runner per process, the sessions1k row's 1,000 connects (100
// handshakes in flight), its 1 s wait and settled heap, its 30 s idle window, then the wait until V8 has given
// back the young generation (polled every 250 ms, at most CAP seconds) and 2 s more. At each point it reads
// /proc/self/smaps (anonymous and file-backed resident bytes, the brk heap of glibc's main arena on its own) and
// V8's own figures (each space's resident bytes, external memory), and prints each part's growth per session
// since before the connects. Anonymous memory that is not V8's is mostly glibc's thread arenas and stacks.
// `rss` is read just before smaps: while V8 is still unmapping freed pages the two can disagree. `oldResident`
// and `oldUsed`: V8's spaces outside the young generation, resident and used by live objects.
//   COLLECT=1   two full collections at the window's end, as the row makes (else: V8's own timing)
//   MAPPINGS=1  the anonymous mappings that grew most by the end
// Run: ZKTS_SERVER=host:port node --expose-gc bench/.build/profile/rss-parts.js zkts|nzk|native [CAP=150]
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

import { settledHeap, sleep, youngGeneration as young } from '../harness/measure.js';
import { connectAsTheRow, rowDriverArguments } from './row-connects.js';

const { id, client: chosen, connectString: cs, rest } = rowDriverArguments('node --expose-gc rss-parts.js zkts|nzk|native [CAP]');
const [capArg = '150'] = rest;
const n = 1000;

type Parts = Record<string, number>;

interface Mapping {
  /** Start address, permissions and size: a key that stays the same while the mapping lives. */
  readonly key: string;
  /** '' for an anonymous mapping, `[heap]` for the brk heap, a path for a file. */
  readonly name: string;
  readonly rss: number;
}

function mappings(): Mapping[] {
  const out: Mapping[] = [];
  let head: RegExpExecArray | null = null;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const next = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (next !== null) {
      head = next;
      continue;
    }
    if (head === null || !line.startsWith('Rss:')) continue;
    const [, from = '0', to = '0', perms = '', name = ''] = head;
    const sizeKb = (parseInt(to, 16) - parseInt(from, 16)) / 1024;
    out.push({ key: `${from} ${perms} ${sizeKb} kB`, name, rss: Number(line.split(/\s+/)[1]) * 1024 });
  }
  return out;
}

/** Resident bytes of every anonymous mapping, by its key (for the mappings that grew most). */
function anonMappings(): Map<string, number> {
  return new Map(mappings().filter((m) => m.name === '').map((m) => [m.key, m.rss]));
}

function grewMost(now: Map<string, number>, base: Map<string, number>, top: number): string {
  const grown = [...now].map(([k, v]) => [k, v - (base.get(k) ?? 0)] as const).sort((a, b) => b[1] - a[1]).slice(0, top);
  return grown.map(([k, v]) => `    ${(v / 1048576).toFixed(1)} MiB  ${k}`).join('\n');
}

/** Resident bytes by kind of mapping (smaps), and V8's own view of its spaces. */
function parts(): Parts {
  const usage = process.memoryUsage();
  const out: Parts = { rss: usage.rss, anon: 0, file: 0, brk: 0, v8: 0, young: young(), external: usage.external };
  for (const m of mappings()) {
    const kind = m.name === '[heap]' ? 'brk' : m.name.startsWith('/') ? 'file' : 'anon';
    out[kind] = (out[kind] ?? 0) + m.rss;
  }
  for (const space of getHeapSpaceStatistics()) {
    out['v8'] = (out['v8'] ?? 0) + space.physical_space_size;
    // Outside the young generation: what is resident against what live objects use (the rest is free space
    // in pages V8 keeps: fragmentation).
    if (space.space_name.startsWith('new_')) continue;
    out['oldResident'] = (out['oldResident'] ?? 0) + space.physical_space_size;
    out['oldUsed'] = (out['oldUsed'] ?? 0) + space.space_used_size;
  }
  out['otherAnon'] = (out['anon'] ?? 0) - (out['v8'] ?? 0);
  return out;
}

function perSession(label: string, now: Parts, base: Parts): string {
  const keys = ['rss', 'file', 'brk', 'v8', 'young', 'otherAnon', 'external', 'oldResident', 'oldUsed'];
  return `${label}: ${keys.map((k) => `${k} ${(((now[k] ?? 0) - (base[k] ?? 0)) / n).toFixed(0)}`).join(', ')}`;
}

settledHeap();
const p0 = parts();
const m0 = anonMappings();
const open = await connectAsTheRow(chosen, cs, n);
const p1 = parts();
await sleep(30_000);
const p2 = parts();
// COLLECT=1: two full collections after the window, as the heap figures take (the young generation is then
// shrunk by V8 itself, the allocation rate being low), and no wait for V8's own timing.
const collected = process.env['COLLECT'] === '1';
if (collected) settledHeap();
const t0 = performance.now();
while (young() > Math.max(p0['young'] ?? 0, 2 * 1048576) && performance.now() - t0 < Number(capArg) * 1000) await sleep(250);
const givenBackS = (performance.now() - t0) / 1000;
// As the row does (harness/scale.ts): V8 unmaps the pages it freed from a background thread, so RSS read the
// moment its statistics say the young generation is back can still hold them (10-18 MB, in 3 of 23 processes).
await sleep(2000);
const p3 = parts();
console.log(`${id} (${collected ? 'collected after the window; ' : ''}young given back after ${givenBackS.toFixed(1)} s, B per session)`);
console.log(perSession('  connected', p1, p0));
console.log(perSession('  at 30 s  ', p2, p0));
console.log(perSession('  settled  ', p3, p0));
if (process.env['MAPPINGS'] === '1') console.log(`  anonymous mappings that grew most, settled:\n${grewMost(anonMappings(), m0, 6)}`);
await Promise.all(open.map((s) => s.close()));
process.exit(0);
