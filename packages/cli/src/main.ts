/**
 * The `zkts` executable: runs one command and exits with its code. SIGINT/SIGTERM abort the running
 * command (which cleans up: closes its session, releases a lock, stops a child); a second one exits at once.
 * A closed stdout or stderr (EPIPE: `zkts ls -R / | head -1`) aborts it the same way, and zkts then exits
 * 0 without a word (see BROKEN_PIPE) instead of dying on an unhandled stream error.
 */
import { COMMANDS } from './commands/index.js';
import { dispatch } from './dispatch.js';
import { BROKEN_PIPE, exitsOnRepeatedSignal } from './signals.js';

const controller = new AbortController();
let interrupted = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted++;
    if (interrupted > 1 && exitsOnRepeatedSignal()) process.exit(130);
    controller.abort(signal);
  });
}

let brokenPipe = false;
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    // Later writes to the dead pipe fail too (ERR_STREAM_DESTROYED): all of it is the same event.
    if (brokenPipe || error.code === 'EPIPE') {
      brokenPipe = true;
      controller.abort(BROKEN_PIPE);
      return;
    }
    throw error;
  });
}

const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
// A command cut short by the broken pipe returns 0 (dispatch); one that had finished keeps its own status.
const code = await dispatch(process.argv.slice(2), { io, commands: COMMANDS, signal: controller.signal });
process.exitCode = code;
// Sockets or timers a library left behind must not keep a finished command alive.
setTimeout(() => process.exit(code), 1000).unref();
