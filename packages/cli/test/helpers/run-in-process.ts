/** Runs a CLI command inside the test process with captured stdout/stderr (for commands needing no server). */
import { PassThrough, Readable } from 'node:stream';

import type { Command } from '../../src/command.js';
import { dispatch } from '../../src/dispatch.js';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runInProcess(commands: readonly Command[], argv: string[], stdin = ''): Promise<InProcessResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const io = { stdin: Readable.from([Buffer.from(stdin)]), stdout, stderr, env: {} };
  const code = await dispatch(argv, { io, commands, signal: new AbortController().signal });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}
