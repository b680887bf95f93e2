/**
 * Help texts, built from the command table so they cannot drift from what the parser accepts: the top-level
 * `zkts --help`, one command's help, and the shell's own `help` (the commands a shell line runs, without the
 * options and exit codes of the zkts executable).
 */
import { formatOptions } from './args.js';
import type { Command } from './command.js';
import { EXIT_CODE_TABLE } from './exit-codes.js';
import { GLOBAL_OPTIONS } from './global-options.js';
import { NOT_IN_SHELL } from './shell-scope.js';

export function exitCodeHelp(): string {
  return EXIT_CODE_TABLE.map(([code, text]) => `  ${String(code).padStart(3)}  ${text}`).join('\n');
}

function table(commands: readonly Command[], width: number): string[] {
  return commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`);
}

function widthOf(commands: readonly Command[]): number {
  return Math.max(...commands.map((c) => c.name.length)) + 2;
}

/** `text` cut at spaces into lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

const own = (commands: readonly Command[]): Command[] => commands.filter((c) => c.aliasOf === undefined);
const zkCliNames = (commands: readonly Command[]): Command[] => commands.filter((c) => c.aliasOf !== undefined);

const ZKCLI_FLAGS = [
  "zkCli's flags mean what they mean there: ls -s -w, get -s -w -b -x, set -s -b, stat -w, create -t TTL and an",
  'ACL after the data; -w waits for the watch to fire (in the shell, its event is printed when it comes).',
];

export function mainHelp(commands: readonly Command[]): string {
  const width = widthOf(commands);
  const aliases = zkCliNames(commands);
  return [
    'usage: zkts [OPTIONS] COMMAND [ARGS...]',
    '',
    'A command line for ZooKeeper. `zkts COMMAND --help` describes one command.',
    '',
    'Commands:',
    ...table(own(commands), width),
    ...(aliases.length === 0
      ? []
      : [
          '',
          "zkCli names (ZooKeeper's zkCli.sh commands, each running the zkts command it stands for):",
          ...table(aliases, width),
          "Before the command, zkCli's -server HOST:PORT, -timeout MS (the session timeout) and -r (--allow-read-only)",
          'work too; `zkts -server HOST:PORT` alone opens the shell, as zkCli does.',
          ...ZKCLI_FLAGS,
        ]),
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

export interface HelpScope {
  /** The whole table, to name the zkCli aliases of the command. */
  readonly commands?: readonly Command[];
  /** Inside `zkts shell`: no `zkts` before the usage, no connection options, no exit codes. */
  readonly shell?: boolean;
}

export function commandHelp(command: Command, scope: HelpScope = {}): string {
  const options = Object.keys(command.options).length > 0 ? ['', 'Options:', formatOptions(command.options)] : [];
  const actions = Object.entries(command.actionOptions ?? {}).filter(([, specs]) => Object.keys(specs).length > 0)
    .flatMap(([action, specs]) => ['', `Options of \`${command.name} ${action}\`:`, formatOptions(specs)]);
  const aliases = zkCliNames(scope.commands ?? []).filter((a) => a.aliasOf?.split(' ')[0] === command.name);
  const zkCli = aliases.length === 0 ? [] : ['', `zkCli names: ${aliases.map((a) => `${a.name} (${a.aliasOf ?? ''})`).join(', ')}.`];
  const excluded = NOT_IN_SHELL[command.name];
  const common =
    scope.shell === true
      ? [
          '',
          ...(excluded === undefined ? [] : [`Not available inside the shell: ${excluded}.`]),
          'Any line may add --json (JSON output). The connection options were set when the shell started.',
        ]
      : ['', 'Common options:', formatOptions(GLOBAL_OPTIONS), '', 'Exit codes: see `zkts --help`.'];
  return [
    `usage: ${scope.shell === true ? '' : 'zkts '}${command.name} ${command.usage}`.trimEnd(),
    '',
    command.summary,
    ...(command.details === undefined ? [] : ['', command.details]),
    ...options,
    ...actions,
    ...zkCli,
    ...common,
    '',
  ].join('\n');
}

/** `help` inside the shell: what a line may say there, and how the shell itself is driven. */
export function shellHelp(commands: readonly Command[], server: string): string {
  const usable = own(commands).filter((c) => NOT_IN_SHELL[c.name] === undefined);
  const aliases = zkCliNames(commands);
  const builtIns: [string, string][] = [
    ['help [COMMAND]', 'this list, or the usage and options of one command'],
    ['exit, quit', 'leave the shell (Ctrl-D too); its session ends, and with it the ephemeral nodes it made'],
  ];
  const width = Math.max(widthOf(commands), ...builtIns.map(([name]) => name.length + 2));
  return [
    `Commands, as on the command line without \`zkts\`, all in this shell's one session on ${server}:`,
    ...table(usable, width),
    ...(aliases.length === 0 ? [] : ['', "zkCli names:", ...table(aliases, width), ...ZKCLI_FLAGS]),
    '',
    'Shell:',
    ...builtIns.map(([name, text]) => `  ${name.padEnd(width)}${text}`),
    'Ctrl-C stops the running command (watch, get -w). Tab completes command names and node paths; the up arrow',
    'and Ctrl-R reach the history (~/.zkts_history). A line may add --json (JSON output for that command); the',
    'connection options (--server, --auth, --sasl, TLS, timeouts) were set when the shell started, and',
    '`auth SCHEME:CREDENTIALS` adds credentials to its session.',
    '',
    'Not in the shell:',
    ...Object.entries(NOT_IN_SHELL).flatMap(([name, why]) => wrap(why, 110 - width - 2).map((text, i) => `  ${(i === 0 ? name : '').padEnd(width)}${text}`)),
    '',
  ].join('\n');
}
