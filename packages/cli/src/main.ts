/**
 * The `zkts` executable: runs one command and exits with its code. SIGINT/SIGTERM abort the running
 * command (which cleans up: closes its session, releases a lock, stops a child); a second one exits at once.
 */
import { COMMANDS } from './commands/index.js';
import { dispatch } from './dispatch.js';
import { exitsOnRepeatedSignal } from './signals.js';

const controller = new AbortController();
let interrupted = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted++;
    if (interrupted > 1 && exitsOnRepeatedSignal()) process.exit(130);
    controller.abort(signal);
  });
}

const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
const code = await dispatch(process.argv.slice(2), { io, commands: COMMANDS, signal: controller.signal });
process.exitCode = code;
// Sockets or timers a library left behind must not keep a finished command alive.
setTimeout(() => process.exit(code), 1000).unref();
