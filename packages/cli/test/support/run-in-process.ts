/** Runs a CLI command inside the test process with captured stdout/stderr (for commands needing no server). */
import { PassThrough, Readable } from 'node:stream';

import type { Command } from '../../src/command.js';
import { dispatch } from '../../src/dispatch.js';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunningCommand {
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves once stdout+stderr match `pattern` (polling; rejects after `timeout` ms). */
  waitFor(pattern: RegExp, timeout?: number): Promise<RegExpMatchArray>;
  /** Like SIGINT for the real process. */
  abort(): void;
  readonly done: Promise<number>;
}

export function startInProcess(commands: readonly Command[], argv: string[], stdin = ''): RunningCommand {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const controller = new AbortController();
  const io = { stdin: Readable.from([Buffer.from(stdin)]), stdout, stderr, env: {} };
  const done = dispatch(argv, { io, commands, signal: controller.signal });
  const text = (chunks: Buffer[]) => (): string => Buffer.concat(chunks).toString('utf8');
  return {
    stdout: text(out),
    stderr: text(err),
    abort: () => controller.abort('SIGINT'),
    done,
    async waitFor(pattern, timeout = 10_000) {
      const deadline = Date.now() + timeout;
      for (;;) {
        const match = (text(out)() + text(err)()).match(pattern);
        if (match !== null) return match;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)}; output:\n${text(out)()}${text(err)()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

export async function runInProcess(commands: readonly Command[], argv: string[], stdin = ''): Promise<InProcessResult> {
  const running = startInProcess(commands, argv, stdin);
  const code = await running.done;
  return { code, stdout: running.stdout(), stderr: running.stderr() };
}
