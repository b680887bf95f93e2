/**
 * `zkts shell`: one session, many commands. Lines are split like sh words and run through the same
 * dispatcher as the command line; Tab completes command names and node paths; history is kept in
 * ~/.zkts_history (ZKTS_HISTORY=file to move it, ZKTS_HISTORY= to turn it off), mode 0600 and without the
 * lines that carry credentials (history.ts). Ctrl-C stops the running command (e.g. watch); Ctrl-D, `exit`
 * or `quit` leave. The exit code is the last command's. On a terminal the prompt names the server and the
 * session's state, and the events of `-w` watches are printed above it when they come.
 */
import { clearLine, createInterface, cursorTo } from 'node:readline';

import type { SessionState, WatchEvent } from '@zkts/protocol';

import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { complete } from '../completion.js';
import { dispatch } from '../dispatch.js';
import { ExitCode } from '../exit-codes.js';
import { HISTORY_SIZE, historyFile, loadHistory, remember } from '../history.js';
import { eventRecord, formatEvent } from '../output.js';
import type { Output } from '../output.js';
import { NOT_IN_SHELL } from '../shell-scope.js';
import { splitWords } from '../shell-words.js';

const STATE_WORDS: Readonly<Record<SessionState, string>> = {
  idle: 'not connected',
  connecting: 'connecting',
  connected: 'connected',
  'connected-read-only': 'read-only',
  suspended: 'suspended',
  expired: 'expired',
  'auth-failed': 'auth failed',
  closed: 'closed',
};

/** The prompt: the server and the session's state, as zkCli's `[zk: host:port(CONNECTED) 0]` shows them. */
export function shellPrompt(server: string, state: SessionState): string {
  return `zkts ${server} (${STATE_WORDS[state]})> `;
}

export const shell: Command = {
  name: 'shell',
  summary: 'an interactive session running the commands above (history, Tab completion of paths)',
  usage: '',
  details:
    'Every command works as on the command line, without `zkts` and without the connection options, which\n' +
    'the shell took at start: `ls -R /app`, `get /app/config`, `auth digest:me:secret`, `watch /app -r`.\n' +
    'Not available inside: lock, shell, and data from stdin (`-`). `help` in the shell lists what it runs.\n' +
    'On a terminal the shell connects at once, and its prompt shows the server and the session state:\n' +
    '`zkts 127.0.0.1:2181 (connected)> `. The events of -w watches (ls -w, get -w, stat -w) are printed when\n' +
    'they come, as `watch: dataChanged /app`.\n' +
    'History: ~/.zkts_history (ZKTS_HISTORY=FILE moves it, ZKTS_HISTORY= turns it off), mode 0600; lines with\n' +
    'credentials (`auth …`, `addauth …`, `--auth …`) are never written to it.',
  options: {},
  async run(context: CommandContext): Promise<number> {
    atMost(context, 0);
    const { io, session } = context;
    const terminal = (io.stdin as { isTTY?: boolean }).isTTY === true && io.stdout.isTTY === true;
    const file = historyFile(io.env);
    const names = [...context.commands.map((c) => c.name).filter((n) => NOT_IN_SHELL[n] === undefined), 'help', 'exit', 'quit'];
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
    // The input ends (Ctrl-D, the end of piped lines) before the lines read ahead have run; the shell is
    // done only once they have.
    let inputClosed = false;
    let done = false;
    rl.on('close', () => (inputClosed = true));
    const prompt = (): void => {
      if (!terminal || inputClosed) return;
      rl.setPrompt(shellPrompt(session.server, session.state));
      rl.prompt(true);
    };
    /** A line printed while the prompt waits goes above it, and the prompt (with what was typed) is redrawn. */
    const notify = (out: Output, event: WatchEvent): void => {
      if (done) return;
      const waiting = terminal && running === undefined;
      if (waiting) {
        clearLine(io.stdout, 0);
        cursorTo(io.stdout, 0);
      }
      out.emit(eventRecord(event), `watch: ${formatEvent(event)}`);
      if (waiting) prompt();
    };
    const deferWatch = (watch: Promise<WatchEvent>, out: Output): void => {
      // A rejection is the session ending (the shell leaving): nothing left to report to.
      watch.then((event) => notify(out, event), () => undefined);
    };
    rl.on('SIGINT', () => {
      if (running !== undefined) running.abort('SIGINT');
      else {
        io.stdout.write('^C\n');
        prompt();
      }
    });
    const stop = (): void => {
      // The same reason as ours (SIGTERM, or a broken pipe that must end the command quietly).
      running?.abort(context.signal.reason);
      rl.close();
    };
    context.signal.addEventListener('abort', stop, { once: true });
    if (terminal) {
      io.stdout.write(`zkts shell on ${session.server}. Tab completes, \`help\` lists commands, Ctrl-D leaves.\n`);
      // A person at a terminal wants to see the session come up (or fail) in the prompt, as zkCli shows it;
      // state changes redraw it while it waits. A failure is reported by the first command that needs the server.
      session.client().then(
        (client) => {
          client.onStateChange(() => {
            if (running === undefined) prompt();
          });
          if (running === undefined) prompt();
        },
        () => {
          if (running === undefined) prompt();
        },
      );
    }
    prompt();
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
          prompt();
          continue;
        }
        if (words.length === 0 || words[0]?.startsWith('#') === true) {
          prompt();
          continue;
        }
        if (words[0] === 'exit' || words[0] === 'quit') break;
        const excluded = NOT_IN_SHELL[words[0] ?? ''];
        if (excluded !== undefined) {
          context.out.error(`${words[0] ?? ''} is not available inside the shell: ${excluded}`, { code: 'USAGE', exitCode: ExitCode.USAGE });
          last = ExitCode.USAGE;
        } else {
          running = new AbortController();
          last = await dispatch(words, { io, commands: context.commands, signal: running.signal, session, deferWatch });
          running = undefined;
        }
        prompt();
      }
    } finally {
      done = true;
      context.signal.removeEventListener('abort', stop);
      rl.close();
    }
    return last;
  },
};
