import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/commands/index.js';
import { EXIT_CODE_TABLE } from '../../src/exit-codes.js';
import { runInProcess } from '../support/run-in-process.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('help and exit codes', () => {
  it('zkts --help lists every command and every exit code', async () => {
    const result = await runInProcess(COMMANDS, ['--help']);
    expect(result.code).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toMatch(new RegExp(`^  ${command.name} +${command.summary.replace(/[()?.*+[\]]/g, '\\$&')}$`, 'm'));
    for (const [code, text] of EXIT_CODE_TABLE) expect(result.stdout).toContain(`${String(code).padStart(3)}  ${text}`);
  });

  it('every command has --help with its usage line and exit 0', async () => {
    for (const command of COMMANDS) {
      const result = await runInProcess(COMMANDS, [command.name, '--help']);
      expect(result.code, command.name).toBe(0);
      expect(result.stdout, command.name).toMatch(new RegExp(`^usage: zkts ${command.name}( |\\n)`));
      const viaHelp = await runInProcess(COMMANDS, ['help', command.name]);
      expect(viaHelp.stdout).toBe(result.stdout);
    }
  });

  it('no command at all is a usage error that still shows the help', async () => {
    const result = await runInProcess(COMMANDS, []);
    expect(result.code).toBe(64);
    expect(result.stdout).toMatch(/^usage: zkts/);
  });

  it('the README documents the same exit codes and every command', () => {
    const rows = EXIT_CODE_TABLE.map(([code, text]) => `| ${code} | ${text} |`);
    for (const row of rows) expect(readme).toContain(row);
    expect(readme.match(/^\| \d+ \| .* \|$/gm)).toHaveLength(rows.length);
    for (const command of COMMANDS) expect(readme).toMatch(new RegExp(`^\\| .*\`${command.name}[ \`]`, 'm'));
  });
});
