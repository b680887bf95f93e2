// `get` writes data byte for byte into a pipe, but on a terminal it always ends the line, so the prompt never
// lands after the data: non-empty data without a newline, and an empty node (an empty line, as zkCli prints).
// The CLI runs in this process with a stdout that says it is a TTY; the server is the shared real ZooKeeper.
import { PassThrough, Readable } from 'node:stream';

import { connect } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/commands/index.js';
import { dispatch } from '../../src/dispatch.js';
import { sharedServer, uniqueRoot } from '../support/cli.js';

const server = sharedServer();
const root = uniqueRoot('tty');
let client: ZkClient;

beforeAll(async () => {
  client = await connect(server);
  await client.create(root);
  await client.create(`${root}/word`, 'hello');
  await client.create(`${root}/line`, 'hello\n');
  await client.create(`${root}/empty`);
});
afterAll(async () => {
  await client.removeRecursive(root);
  await client.close();
});

async function getOn(tty: boolean, path: string): Promise<string> {
  const stdout = Object.assign(new PassThrough(), { isTTY: tty });
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  const io = { stdin: Readable.from([]), stdout, stderr: new PassThrough(), env: {} };
  const code = await dispatch(['--server', server, 'get', path], { io, commands: COMMANDS, signal: new AbortController().signal });
  expect(code).toBe(0);
  return Buffer.concat(chunks).toString('utf8');
}

describe('get on a terminal', { timeout: 60_000 }, () => {
  it('ends with a newline on a terminal, the empty node included, and adds nothing in a pipe', async () => {
    expect(await getOn(true, `${root}/word`)).toBe('hello\n');
    expect(await getOn(true, `${root}/line`)).toBe('hello\n');
    expect(await getOn(true, `${root}/empty`)).toBe('\n');
    expect(await getOn(false, `${root}/word`)).toBe('hello');
    expect(await getOn(false, `${root}/empty`)).toBe('');
  });
});
