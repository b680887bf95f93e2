/** Help texts, built from the command table so they cannot drift from what the parser accepts. */
import { formatOptions } from './args.js';
import type { Command } from './command.js';
import { EXIT_CODE_TABLE } from './exit-codes.js';
import { GLOBAL_OPTIONS } from './global-options.js';

export function exitCodeHelp(): string {
  return EXIT_CODE_TABLE.map(([code, text]) => `  ${String(code).padStart(3)}  ${text}`).join('\n');
}

export function mainHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    'usage: zkts [OPTIONS] COMMAND [ARGS...]',
    '',
    'A command line for ZooKeeper. `zkts COMMAND --help` describes one command.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Options (every command):',
    formatOptions(GLOBAL_OPTIONS),
    '',
    'Exit codes:',
    exitCodeHelp(),
    '',
  ].join('\n');
}

export function commandHelp(command: Command): string {
  const own = Object.keys(command.options).length > 0 ? ['', 'Options:', formatOptions(command.options)] : [];
  return [
    `usage: zkts ${command.name} ${command.usage}`.trimEnd(),
    '',
    command.summary,
    ...(command.details === undefined ? [] : ['', command.details]),
    ...own,
    '',
    'Common options:',
    formatOptions(GLOBAL_OPTIONS),
    '',
    'Exit codes: see `zkts --help`.',
    '',
  ].join('\n');
}
