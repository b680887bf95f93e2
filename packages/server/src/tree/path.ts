/**
 * ZooKeeper's path rules (org.apache.zookeeper.common.PathUtils.validatePath) and the parent/child split the
 * server uses everywhere. Characters are checked per UTF-16 unit, as Java's char is.
 */

/** Why `path` is not a valid znode path, or undefined when it is. */
export function invalidPathReason(path: string | null): string | undefined {
  if (path === null) return 'Path cannot be null';
  if (path.length === 0) return 'Path length must be > 0';
  if (path.charCodeAt(0) !== 0x2f) return 'Path must start with / character';
  if (path.length === 1) return undefined;
  if (path.charCodeAt(path.length - 1) === 0x2f) return 'Path must not end with / character';
  let last = 0x2f;
  for (let i = 1; i < path.length; last = path.charCodeAt(i), i++) {
    const c = path.charCodeAt(i);
    const next = i + 1 === path.length ? -1 : path.charCodeAt(i + 1);
    if (c === 0) return `null character not allowed @${i}`;
    if (c === 0x2f && last === 0x2f) return `empty node name specified @${i}`;
    if (c === 0x2e && last === 0x2e) {
      if (path.charCodeAt(i - 2) === 0x2f && (next === -1 || next === 0x2f)) return `relative paths not allowed @${i}`;
    } else if (c === 0x2e) {
      if (last === 0x2f && (next === -1 || next === 0x2f)) return `relative paths not allowed @${i}`;
    } else if ((c > 0 && c <= 0x1f) || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xf8ff) || c >= 0xfff0) {
      return `invalid character @${i}`;
    }
  }
  return undefined;
}

/** Whether `path` passes validatePath. */
export function isValidPath(path: string | null): path is string {
  return invalidPathReason(path) === undefined;
}

/** The parent of `path` as ZooKeeper splits it: everything before the last '/' ('' for top-level nodes). */
export function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/'));
}

/** The last component of `path`. */
export function childNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The path whose watches a change of `parent`'s children triggers: '' is the root, reported as '/'. */
export function watchPathOf(parent: string): string {
  return parent === '' ? '/' : parent;
}

/** `%010d` as Java formats an int: ten digits, zero-padded; a negative number keeps its sign inside the width. */
export function sequenceSuffix(cversion: number): string {
  if (cversion >= 0) return String(cversion).padStart(10, '0');
  return `-${String(-cversion).padStart(9, '0')}`;
}
