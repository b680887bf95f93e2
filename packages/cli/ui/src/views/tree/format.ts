/** How the tree view writes paths, sizes, times and bytes: pure functions, no DOM. */

/** The location hash of a node: each name percent-encoded, so any name survives the round trip. */
export function treeHref(path: string): string {
  if (path === '/') return '#/tree/';
  return `#/tree${path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/')}`;
}

/** The node path of the hash's rest (`/a/b/` → `/a/b`). */
export function pathOfRest(rest: string): string {
  const trimmed = rest.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

export function childPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB (${bytes.toLocaleString('en-US')} B)`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB (${bytes.toLocaleString('en-US')} B)`;
}

const UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
  ['second', 1000],
];

export function relativeTime(ms: number, now = Date.now()): string {
  const diff = ms - now;
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size) return format.format(Math.round(diff / size), unit);
  }
  return 'just now';
}

export function formatTime(ms: number): string {
  if (ms === 0) return '—';
  return `${new Date(ms).toISOString()} (${relativeTime(ms)})`;
}

/** Decodes UTF-8, invalid sequences as U+FFFD; `valid` says whether there were any. */
export function decodeText(bytes: Uint8Array): { text: string; valid: boolean } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), valid: true };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), valid: false };
  }
}

/** Pretty JSON when the text is a JSON document, else undefined. */
export function prettyJson(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return undefined;
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export const HEX_ROW_BYTES = 16;

/** One hex dump line: offset, the bytes in hex, the printable ASCII ('.' for the rest). */
export function hexRow(bytes: Uint8Array, row: number): { offset: string; hex: string; ascii: string } {
  const start = row * HEX_ROW_BYTES;
  const end = Math.min(start + HEX_ROW_BYTES, bytes.length);
  let hex = '';
  let ascii = '';
  for (let i = start; i < end; i++) {
    const b = bytes[i] ?? 0;
    hex += `${HEX[b] ?? '??'}${i - start === 7 ? '  ' : ' '}`;
    ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
  }
  return { offset: start.toString(16).padStart(8, '0'), hex: hex.trimEnd(), ascii };
}

/**
 * Characters that change how a name looks without showing themselves (zero-width, direction overrides, line
 * separators): a name holding one may pass for another, so the list flags it.
 */
const DECEPTIVE = /[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff]/gu;

/** The deceptive characters of a name as `U+XXXX` codes, or an empty list. */
export function deceptiveChars(name: string): string[] {
  const found = new Set<string>();
  for (const match of name.matchAll(DECEPTIVE)) found.add(`U+${(match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
  return [...found];
}
