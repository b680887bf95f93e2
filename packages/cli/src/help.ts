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
    'Connecting: each server\'s failure is printed as it happens (refused, unknown host, TLS, no handshake);',
    'when every host refused or does not resolve, zkts stops after that one pass instead of waiting --timeout.',
    "TLS (a secureClientPort): --tls-ca ca.pem, plus --tls-cert and --tls-key for ZooKeeper's x509 authentication;",
    'a failed handshake (unknown CA, wrong name, a port without TLS) is final too: one line with the reason.',
    'Errors: one line on stderr, `zkts: COMMAND: message [CODE]`; with --json one {"error":{"code","message",',
    '"exitCode",…}} object per line. A closed stdout (`zkts ls -R / | head`) ends the command quietly, exit 0.',
    '',
    'Exit codes:',
    exitCodeHelp(),
    '',
  ].join('\n');
}

export function commandHelp(command: Command): string {
  const own = Object.keys(command.options).length > 0 ? ['', 'Options:', formatOptions(command.options)] : [];
  const actions = Object.entries(command.actionOptions ?? {}).filter(([, specs]) => Object.keys(specs).length > 0)
    .flatMap(([action, specs]) => ['', `Options of \`${command.name} ${action}\`:`, formatOptions(specs)]);
  return [
    `usage: zkts ${command.name} ${command.usage}`.trimEnd(),
    '',
    command.summary,
    ...(command.details === undefined ? [] : ['', command.details]),
    ...own,
    ...actions,
    '',
    'Common options:',
    formatOptions(GLOBAL_OPTIONS),
    '',
    'Exit codes: see `zkts --help`.',
    '',
  ].join('\n');
}
