/**
 * The shell's history file. It must not become a store of passwords: a line that carries credentials
 * (`auth digest:user:secret`, `--auth …`) is never written, and one found from an older zkts is dropped
 * when the shell starts. The file is the user's alone (0600), like ~/.bash_history; a looser mode that is
 * found is tightened.
 */
import { appendFileSync, chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const HISTORY_SIZE = 1000;
const PRIVATE = 0o600;

export function historyFile(env: NodeJS.ProcessEnv): string | undefined {
  const configured = env['ZKTS_HISTORY'];
  if (configured === '') return undefined;
  return configured ?? join(homedir(), '.zkts_history');
}

/**
 * True for a line that may hold credentials: the `auth` command (zkCli's `addauth`), or an `--auth` option anywhere (also in
 * quotes or glued, `--auth=…`). Judged on the raw text, so a line that does not even split is caught.
 */
export function carriesCredentials(line: string): boolean {
  return /^\s*["']?(?:add)?auth(?:["'\s]|$)/.test(line) || /--auth\b/.test(line);
}

/** The stored lines, newest first (readline's order), without credential lines; scrubs and tightens the file. */
export function loadHistory(file: string | undefined): string[] {
  if (file === undefined) return [];
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  } catch {
    return [];
  }
  try {
    const kept = lines.filter((l) => !carriesCredentials(l));
    if (kept.length !== lines.length) writeFileSync(file, kept.map((l) => `${l}\n`).join(''), { mode: PRIVATE });
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE);
    lines = kept;
  } catch {
    // A history that cannot be fixed is still not read back with credentials in it.
    lines = lines.filter((l) => !carriesCredentials(l));
  }
  return lines.slice(-HISTORY_SIZE).reverse();
}

/** Appends one entered line, unless it is empty or carries credentials. Never throws: history is a convenience. */
export function remember(file: string | undefined, line: string): void {
  if (file === undefined || line.trim() === '' || carriesCredentials(line)) return;
  try {
    appendFileSync(file, `${line}\n`, { mode: PRIVATE });
  } catch {
    // An unwritable home must not break the shell.
  }
}
