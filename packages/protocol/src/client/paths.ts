/**
 * Path rules of ZooKeeper's PathUtils.validatePath, checked before anything reaches the wire, plus small
 * path helpers. Paths are UTF-16 strings here; the rules are stated on UTF-16 code units, as in Java.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { checkOptionKeys, describeValue } from '../errors/option-keys.js';

function isForbiddenChar(c: number): boolean {
  return (
    (c > 0x0000 && c <= 0x001f) ||
    (c >= 0x007f && c <= 0x009f) ||
    (c >= 0xd800 && c <= 0xf8ff) ||
    (c >= 0xfff0 && c <= 0xffff)
  );
}

/** The UTF-16 unit at `i`, the sequential counter's first digit ('1') just past the end. */
function codeAt(path: string, i: number): number {
  return i < path.length ? path.charCodeAt(i) : 0x31;
}

/**
 * Why `path` is not a valid ZooKeeper path, or null. `sequential`: checked as the server will see it, with a
 * counter after it (as PathUtils does), without building that string: index `path.length` reads as '1'.
 */
function reason(path: string, sequential: boolean): string | null {
  const n = path.length + (sequential ? 1 : 0);
  if (n === 0) return 'path must not be empty';
  if (codeAt(path, 0) !== 0x2f) return 'path must start with /';
  if (n === 1) return null;
  if (codeAt(path, n - 1) === 0x2f) return 'path must not end with /';
  for (let i = 1; i < n; i++) {
    const c = codeAt(path, i);
    // '0'…'~' (digits, letters, most punctuation) break no rule: only '/', '.', NUL and the forbidden ranges do.
    if (c > 0x2f && c < 0x7f) continue;
    const prev = codeAt(path, i - 1);
    const segmentEnds = i + 1 === n || codeAt(path, i + 1) === 0x2f;
    if (c === 0) return `null character at index ${i}`;
    if (c === 0x2f && prev === 0x2f) return `empty segment at index ${i}`;
    if (c === 0x2e && prev === 0x2e && i >= 2 && codeAt(path, i - 2) === 0x2f && segmentEnds) {
      return `relative segment '..' at index ${i - 1}`;
    }
    if (c === 0x2e && prev === 0x2f && segmentEnds) return `relative segment '.' at index ${i}`;
    if (isForbiddenChar(c)) return `invalid character \\u${c.toString(16).padStart(4, '0')} at index ${i}`;
  }
  return null;
}

/** Throws InvalidArgumentError unless `path` is a valid ZooKeeper path. A sequential create may end with '/'. */
export function validatePath(path: string, options: { sequential?: boolean } = {}): void {
  if (typeof path !== 'string') throw new InvalidArgumentError('path', `path must be a string, got ${describeValue(path)}`);
  checkOptionKeys(options, ['sequential'], 'validatePath');
  if (options.sequential !== undefined && typeof options.sequential !== 'boolean') {
    throw new InvalidArgumentError('sequential', `sequential must be true or false, got ${describeValue(options.sequential)}`);
  }
  checkPath(path, options.sequential === true);
}

/**
 * The last path checkPath found valid as a plain (not sequential) path. Clients tend to name the same node again
 * (a read loop, a lock's directory, a cache's node), and comparing with it costs less than scanning the path.
 */
let lastValidPath = '/';

/** validatePath for the client's own operations, which have no options object to check. */
export function checkPath(path: string, sequential = false): void {
  if (path === lastValidPath && !sequential) return;
  if (typeof path !== 'string') throw new InvalidArgumentError('path', `path must be a string, got ${describeValue(path)}`);
  const why = reason(path, sequential);
  if (why !== null) throw new InvalidArgumentError('path', `${why}: ${JSON.stringify(path)}`);
  if (!sequential) lastValidPath = path;
}

function stringPath(p: unknown, where: string): void {
  if (typeof p !== 'string') throw new InvalidArgumentError('path', `${where} takes a string path, got ${describeValue(p)}`);
}

/** Joins segments with single slashes: joinPath('/a', 'b/', '/c') === '/a/b/c'. */
export function joinPath(...parts: string[]): string {
  // Every non-empty run between slashes, each after one '/': the recipes join a path per request, so this
  // scans the parts once instead of splitting them into arrays.
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (typeof part !== 'string') throw new InvalidArgumentError('parts', `joinPath part #${i} must be a string, got ${describeValue(part)}`);
    const n = part.length;
    let start = 0;
    while (start < n) {
      let end = part.indexOf('/', start);
      if (end < 0) end = n;
      if (end > start) out += start === 0 && end === n ? `/${part}` : `/${part.slice(start, end)}`;
      start = end + 1;
    }
  }
  return out === '' ? '/' : out;
}

/** '/a/b' → '/a', '/a' → '/', '/' → '/'. */
export function parentPath(p: string): string {
  stringPath(p, 'parentPath');
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

/** '/a/b' → 'b', '/' → ''. */
export function basename(p: string): string {
  stringPath(p, 'basename');
  return p.slice(p.lastIndexOf('/') + 1);
}

/** Every ancestor of a path, nearest first, '/' last: '/a/b/c' → ['/a/b', '/a', '/']. */
export function ancestors(p: string): string[] {
  const out: string[] = [];
  let cur = p;
  while (cur !== '/') {
    cur = parentPath(cur);
    out.push(cur);
  }
  return out;
}
