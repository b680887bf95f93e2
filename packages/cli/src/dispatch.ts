/**
 * From an argument vector to a finished command and its exit code. Shared by the one-shot CLI and by the
 * shell, which runs every line through here with its own long-lived session. Errors end here: one line on
 * stderr, `zkts: COMMAND: message [CODE]`, or with --json one `{"error":{…}}` object carrying the exit code.
 */
import { setMaxListeners } from 'node:events';

import { ZkError } from '@zkts/protocol';

import { flag, parseArgv } from './args.js';
import { optionsOf, type Command, type Io } from './command.js';
import { CliError, ExitCode, exitCodeFor, exitCodeName, UsageError } from './exit-codes.js';
import { GLOBAL_OPTIONS, globalOptions, takesValue } from './global-options.js';
import { commandHelp, mainHelp } from './help.js';
import { Output } from './output.js';
import { messageOf, Session } from './session.js';
import { isBrokenPipe } from './signals.js';
import { cliVersion } from './version.js';

export interface DispatchOptions {
  readonly io: Io;
  readonly commands: readonly Command[];
  readonly signal: AbortSignal;
  /** The shell's session; without one, the command gets a fresh session that is closed afterwards. */
  readonly session?: Session;
}

/** Finds the command name: the first token that is neither an option nor a global option's value. */
function splitCommand(argv: readonly string[]): { name: string | undefined; rest: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === '--') break;
    if (token.startsWith('-')) {
      if (takesValue(token)) i++;
      continue;
    }
    return { name: token, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
  }
  return { name: undefined, rest: [...argv] };
}

/** --json before any parsing, so that even a usage error comes out as JSON. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

export async function dispatch(argv: readonly string[], options: DispatchOptions): Promise<number> {
  const { io, commands } = options;
  // Every pipelined request listens on the command's signal (tree fetches whole levels at once): that many
  // listeners are expected, not a leak, and Node's warning would land on stderr.
  setMaxListeners(0, options.signal);
  const interactive = options.session !== undefined;
  let out = new Output(wantsJson(argv), io.stdout, io.stderr);
  const { name, rest } = splitCommand(argv);
  const command = commands.find((c) => c.name === name);
  try {
    if (name === undefined) {
      const args = parseArgv(rest, GLOBAL_OPTIONS);
      if (flag(args, 'version')) return version(out);
      io.stdout.write(mainHelp(commands));
      return flag(args, 'help') ? ExitCode.OK : ExitCode.USAGE;
    }
    if (name === 'help') {
      const topic = commands.find((c) => c.name === rest.find((t) => !t.startsWith('-')));
      io.stdout.write(topic === undefined ? mainHelp(commands) : commandHelp(topic));
      return ExitCode.OK;
    }
    if (command === undefined) throw new UsageError(`unknown command '${name}' (see zkts --help)`);
    const args = parseArgv(rest, { ...GLOBAL_OPTIONS, ...optionsOf(command, rest) }, { splitRest: command.splitRest === true });
    if (flag(args, 'help')) {
      io.stdout.write(commandHelp(command));
      return ExitCode.OK;
    }
    if (flag(args, 'version')) return version(out);
    const global = globalOptions(args, io.env);
    out = new Output(global.json, io.stdout, io.stderr);
    const session = options.session ?? new Session(global, out);
    try {
      return await command.run({ args, global, out, session, io, signal: options.signal, interactive, commands });
    } catch (error) {
      throw await session.explain(error);
    } finally {
      if (options.session === undefined) await session.close();
    }
  } catch (error) {
    // The reader of stdout went away (`zkts ls -R / | head`): it has what it wanted, nothing to report.
    if (options.signal.aborted && isBrokenPipe(options.signal.reason)) return ExitCode.OK;
    const code = exitCodeFor(error);
    const usage = error instanceof UsageError && command !== undefined ? `usage: zkts ${command.name} ${command.usage}`.trimEnd() : undefined;
    if (out.json) {
      const details = error instanceof CliError ? error.details : undefined;
      out.error(messageOf(error), {
        code: error instanceof ZkError ? error.code : exitCodeName(code),
        exitCode: code,
        ...(name === undefined ? {} : { command: name }),
        ...(usage === undefined ? {} : { usage }),
        ...details,
      });
    } else {
      out.error(describe(error, name));
      if (usage !== undefined) out.note(usage);
    }
    return code;
  }
}

function version(out: Output): number {
  out.emit({ name: 'zkts', version: cliVersion() }, `zkts ${cliVersion()}`);
  return ExitCode.OK;
}

/** One line for a person: the message, and for server errors the path and code they concern. */
function describe(error: unknown, name: string | undefined): string {
  const prefix = name === undefined ? '' : `${name}: `;
  if (error instanceof CliError) return `${prefix}${error.message}`;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return `${prefix}${messageOf(error)} [${code}]`;
  return `${prefix}${messageOf(error)}`;
}
