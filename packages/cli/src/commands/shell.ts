/**
 * `zkts shell`: one session, many commands. Lines are split like sh words and run through the same
 * dispatcher as the command line; Tab completes command names and node paths; history is kept in
 * ~/.zkts_history (ZKTS_HISTORY=file to move it, ZKTS_HISTORY= to turn it off), mode 0600 and without the
 * lines that carry credentials (history.ts). Ctrl-C stops the running command (e.g. watch); Ctrl-D, `exit`
 * or `quit` leave. The exit code is the last command's.
 */
import { createInterface } from 'node:readline';

import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { complete } from '../completion.js';
import { dispatch } from '../dispatch.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { HISTORY_SIZE, historyFile, loadHistory, remember } from '../history.js';
import { splitWords } from '../shell-words.js';

/** Commands that take over the terminal or the process and make no sense inside the shell. */
const NOT_IN_SHELL = new Set(['shell', 'lock']);

export const shell: Command = {
  name: 'shell',
  summary: 'an interactive session running the commands above (history, Tab completion of paths)',
  usage: '',
  details:
    'Every command works as on the command line, without `zkts` and without the connection options, which\n' +
    'the shell took at start: `ls -R /app`, `get /app/config`, `auth digest:me:secret`, `watch /app -r`.\n' +
    'Not available inside: lock, shell, and data from stdin (`-`).\n' +
    'History: ~/.zkts_history (ZKTS_HISTORY=FILE moves it, ZKTS_HISTORY= turns it off), mode 0600; lines with\n' +
    'credentials (`auth …`, `--auth …`) are never written to it.',
  options: {},
  async run(context: CommandContext): Promise<number> {
    atMost(context, 0);
    const { io, session } = context;
    const terminal = (io.stdin as { isTTY?: boolean }).isTTY === true && io.stdout.isTTY === true;
    const file = historyFile(io.env);
    const names = [...context.commands.map((c) => c.name).filter((n) => !NOT_IN_SHELL.has(n)), 'help', 'exit', 'quit'];
    const rl = createInterface({
      input: io.stdin,
      output: io.stdout,
      terminal,
      history: loadHistory(file),
      historySize: HISTORY_SIZE,
      removeHistoryDuplicates: true,
      completer: (line: string, callback: (error: Error | null, result: [string[], string]) => void): void => {
        complete(line, names, () => session.client()).then(
          (result) => callback(null, result),
          () => callback(null, [[], line]),
        );
      },
    });
    let running: AbortController | undefined;
    rl.on('SIGINT', () => {
      if (running !== undefined) running.abort('SIGINT');
      else {
        io.stdout.write('^C\n');
        rl.prompt();
      }
    });
    const stop = (): void => {
      // The same reason as ours (SIGTERM, or a broken pipe that must end the command quietly).
      running?.abort(context.signal.reason);
      rl.close();
    };
    context.signal.addEventListener('abort', stop, { once: true });
    if (terminal) io.stdout.write(`zkts shell on ${session.server}. Tab completes, \`help\` lists commands, Ctrl-D leaves.\n`);
    rl.setPrompt('zkts> ');
    if (terminal) rl.prompt();
    let last: number = ExitCode.OK;
    try {
      for await (const line of rl) {
        remember(file, line);
        let words: string[];
        try {
          words = splitWords(line);
        } catch (error) {
          context.out.error((error as Error).message, { code: 'USAGE', exitCode: ExitCode.USAGE });
          last = ExitCode.USAGE;
          if (terminal) rl.prompt();
          continue;
        }
        if (words.length === 0 || words[0]?.startsWith('#') === true) {
          if (terminal) rl.prompt();
          continue;
        }
        if (words[0] === 'exit' || words[0] === 'quit') break;
        if (NOT_IN_SHELL.has(words[0] ?? '')) {
          context.out.error(new UsageError(`${words[0]} is not available inside the shell`).message, { code: 'USAGE', exitCode: ExitCode.USAGE });
          last = ExitCode.USAGE;
        } else {
          running = new AbortController();
          last = await dispatch(words, { io, commands: context.commands, signal: running.signal, session });
          running = undefined;
        }
        if (terminal) rl.prompt();
      }
    } finally {
      context.signal.removeEventListener('abort', stop);
      rl.close();
    }
    return last;
  },
};
