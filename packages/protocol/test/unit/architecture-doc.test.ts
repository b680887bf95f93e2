// docs/architecture.md names real files and symbols so a newcomer can follow the code. This keeps it true: every
// backticked path must exist, and every backticked symbol must be defined in one of the files named in the
// same paragraph or list item.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const doc = readFileSync(`${root}docs/architecture.md`, 'utf8');

/** Paragraphs and list items (a table row counts as one). */
function blocks(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  for (const line of text.split('\n')) {
    const startsItem = /^\s*(\d+\.|-|\|)\s/.test(line);
    if (line.trim() === '' || startsItem) {
      if (current.length > 0) out.push(current.join(' '));
      current = [];
    }
    if (line.trim() !== '') current.push(line);
  }
  if (current.length > 0) out.push(current.join(' '));
  return out;
}

const PATH = /`((?:packages|docs)\/[\w./-]+\.(?:ts|md))`/g;
// `Class.method`, `function`, `Name`: identifiers that look like code (not options like `{ signal }`).
const SYMBOL = /`([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)?)`/g;
/** Backticked words that are API names or Node's, not symbols of the named files. */
const NOT_SYMBOLS = new Set(['getData', 'state', 'addAuth', 'whileSuspended', 'process.nextTick']);

describe('docs/architecture.md', () => {
  const refs = blocks(doc).map((block) => ({
    block,
    paths: [...block.matchAll(PATH)].map((m) => m[1] as string),
    symbols: [...block.matchAll(SYMBOL)].map((m) => m[1] as string),
  }));

  it('names only files that exist', () => {
    const paths = refs.flatMap((r) => r.paths);
    expect(paths.length).toBeGreaterThan(25);
    expect(paths.filter((p) => !existsSync(`${root}${p}`))).toEqual([]);
  });

  it('names only symbols defined in the files it names beside them', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const { paths, symbols } of refs) {
      const sources = paths.filter((p) => p.endsWith('.ts') && existsSync(`${root}${p}`)).map((p) => readFileSync(`${root}${p}`, 'utf8'));
      if (sources.length === 0) continue;
      for (const symbol of symbols) {
        if (NOT_SYMBOLS.has(symbol)) continue;
        const name = symbol.includes('.') ? (symbol.split('.')[1] as string) : symbol;
        const owner = symbol.includes('.') ? (symbol.split('.')[0] as string) : undefined;
        const defines = (src: string): boolean =>
          new RegExp(`(class|interface|function|const|type)\\s+${name}\\b|^\\s*(private |readonly |async |static |get )*${name}\\s*[(<:=]`, 'm').test(src) &&
          (owner === undefined || new RegExp(`(class|interface)\\s+${owner}\\b`).test(src));
        checked++;
        if (!sources.some(defines)) missing.push(symbol);
      }
    }
    expect(checked).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });
});

// docs/testing.md records every flaky test found; its paths are relative to packages/ (or the root for the
// root's own tests) and must keep naming real files as tests move.
describe('docs/testing.md', () => {
  const testing = readFileSync(`${root}docs/testing.md`, 'utf8');

  it('names only files that exist, and numbers the flaky tests without a gap', () => {
    const paths = [...testing.matchAll(/`([\w-]+\/[\w./-]+\.(?:ts|tsx|mjs|sh))`/g)].map((m) => m[1] as string);
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((p) => !existsSync(`${root}packages/${p}`) && !existsSync(`${root}${p}`))).toEqual([]);
    const numbers = [...testing.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(numbers.length).toBeGreaterThanOrEqual(38);
  });
});
