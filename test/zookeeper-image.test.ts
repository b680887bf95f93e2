// scripts/zookeeper-image.sh takes its Debian mirror from MIRROR= or from this machine's apt configuration and
// from nowhere else. `--print-mirror` runs only that detection; here apt-config is pointed (APT_CONFIG) at a
// scratch Dir::Etc holding the sources of each case, so the machine's own apt set-up plays no part.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../scripts/zookeeper-image.sh', import.meta.url));
const hasAptConfig = spawnSync('sh', ['-c', 'command -v apt-config'], { stdio: 'ignore' }).status === 0;
const scratch: string[] = [];

afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs `--print-mirror` with an apt configuration whose only sources are `files` (name → text). */
function printMirror(files: Record<string, string>, env: Record<string, string> = {}): { code: number | null; out: string; err: string } {
  const etc = mkdtempSync(join(tmpdir(), 'zkts-apt-'));
  scratch.push(etc);
  mkdirSync(join(etc, 'sources.list.d'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(etc, name), text);
  const conf = join(etc, 'apt.conf');
  writeFileSync(conf, `Dir::Etc "${etc}/";\nDir::Etc::sourcelist "sources.list";\nDir::Etc::sourceparts "sources.list.d";\n`);
  const { MIRROR: _mirror, SUITE: _suite, ...inherited } = process.env;
  const r = spawnSync('bash', [script, '--print-mirror'], { encoding: 'utf8', env: { ...inherited, APT_CONFIG: conf, ...env } });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr };
}

describe.skipIf(!hasAptConfig)('zookeeper-image.sh --print-mirror', () => {
  it("takes the first enabled deb822 stanza of the suite (deb-src, disabled and other suites' stanzas skipped)", () => {
    const sources = [
      'Types: deb-src\nURIs: http://src.example.test/debian\nSuites: bookworm\nComponents: main\n',
      'Types: deb\nURIs: http://off.example.test/debian\nSuites: bookworm\nEnabled: no\n',
      'Types: deb\n# a comment\nURIs: http://security.example.test/debian-security\nSuites: bookworm-security\n',
      'Types: deb\nURIs: http://mirror.example.test/debian\nSuites: bookworm bookworm-updates\nComponents: main\n',
    ].join('\n');
    expect(printMirror({ 'sources.list.d/debian.sources': sources })).toMatchObject({ code: 0, out: 'http://mirror.example.test/debian' });
  });

  it('reads one-line entries, options in brackets included, and the suite asked for', () => {
    const list = [
      '# deb http://commented.example.test/debian bookworm main',
      'deb [ arch=amd64 signed-by=/k.gpg ] http://one.example.test/debian bookworm main',
      'deb http://trixie.example.test/debian trixie main',
    ].join('\n');
    expect(printMirror({ 'sources.list': list })).toMatchObject({ code: 0, out: 'http://one.example.test/debian' });
    expect(printMirror({ 'sources.list': list }, { SUITE: 'trixie' })).toMatchObject({ code: 0, out: 'http://trixie.example.test/debian' });
  });

  it('prefers MIRROR= over apt', () => {
    const list = 'deb http://apt.example.test/debian bookworm main\n';
    expect(printMirror({ 'sources.list': list }, { MIRROR: 'http://given.example.test/debian' })).toMatchObject({ code: 0, out: 'http://given.example.test/debian' });
  });

  it('fails saying so when apt has no mirror for the suite and MIRROR is unset: no built-in host', () => {
    const r = printMirror({ 'sources.list.d/other.sources': 'Types: deb\nURIs: http://other.example.test/apt\nSuites: nodistro\n' });
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/no Debian mirror for 'bookworm' in this machine's apt configuration/);
    expect(r.err).toMatch(/set MIRROR=/);
  });
});
