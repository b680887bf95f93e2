/**
 * `zkts --version`: the version of this package, read from its package.json at run time so it cannot drift
 * from what was published. The file sits one level above both src/ and dist/, so one relative URL serves the
 * sources and the build.
 */
import { readFileSync } from 'node:fs';

export function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}
