/**
 * What a line of `zkts shell` may hold. Every command runs in the shell's one session, so the options that
 * make a session (--server, --auth, TLS…) were settled when the shell started: on a line they would be
 * silently ignored, and are refused instead. Two commands cannot run inside at all; each says why.
 */
import type { OptionSpecs, ParsedArgs } from './args.js';
import { UsageError } from './exit-codes.js';
import { GLOBAL_OPTIONS } from './global-options.js';

/** Global options that mean something per line. */
const PER_LINE = new Set(['json', 'help', 'version']);

/** Commands the shell does not run, and why. */
export const NOT_IN_SHELL: Readonly<Record<string, string>> = {
  lock:
    "it runs CMD on the shell's own terminal and stdin (piped lines after it would go to CMD) and ends with " +
    "CMD's exit status; run it from your system shell: zkts --server HOST:PORT lock PATH -- CMD",
  shell: 'this is the shell already; `exit` leaves it, and `zkts --server HOST:PORT shell` in your system shell opens another',
};

/** Refuses session options given on a shell line (`ls --auth digest:a:b /`), naming what to do instead. */
export function checkShellLine(args: ParsedArgs, own: OptionSpecs): void {
  const session = (name: string): boolean => name in GLOBAL_OPTIONS && !(name in own) && !PER_LINE.has(name);
  const given = Object.keys(args.values).filter((name) => session(name) && args.values[name] !== undefined);
  if (given.length === 0) return;
  const options = given.map((name) => `--${name}`).join(', ');
  const auth = given.includes('auth') ? '; `auth SCHEME:CREDENTIALS` adds credentials to this session' : '';
  throw new UsageError(`${options}: the shell's session was set up when it started (zkts ${options.split(',')[0] as string} … shell)${auth}`);
}
