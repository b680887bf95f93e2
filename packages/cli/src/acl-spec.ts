/**
 * ACL specs as zkCli writes them: comma-separated `scheme:id:perms`, perms being letters of `cdrwa`
 * (create, delete, read, write, admin). The id may itself contain colons (`digest:user:hash`, IPv6), so
 * the scheme ends at the first colon and the perms start after the last one.
 */
import type { ACL } from '@zkts/protocol';

import { CliError, ExitCode } from './exit-codes.js';

const LETTERS: Readonly<Record<string, number>> = { r: 1, w: 2, c: 4, d: 8, a: 16 };

export function parsePerms(text: string, entry: string): number {
  if (text === '') throw bad(entry, 'no permissions (use letters of cdrwa)');
  let perms = 0;
  for (const letter of text) {
    const bit = LETTERS[letter];
    if (bit === undefined) throw bad(entry, `unknown permission '${letter}' (use letters of cdrwa)`);
    perms |= bit;
  }
  return perms;
}

export function parseAclSpec(spec: string): ACL[] {
  const entries = spec.split(',').map((s) => s.trim());
  if (entries.length === 0 || entries.some((e) => e === '')) throw bad(spec, 'empty entry');
  return entries.map((entry) => {
    const first = entry.indexOf(':');
    const last = entry.lastIndexOf(':');
    if (first <= 0 || last === first) throw bad(entry, 'expected scheme:id:perms');
    return { perms: parsePerms(entry.slice(last + 1), entry), id: { scheme: entry.slice(0, first), id: entry.slice(first + 1, last) } };
  });
}

function bad(entry: string, message: string): CliError {
  return new CliError(ExitCode.USAGE, `bad ACL '${entry}': ${message}`);
}
