// Connecting, as a new user meets it: a dead or mistyped --server must say why at once (refused, unknown
// host, a silent server), and connect-string mistakes must be named in words, not as parser trivia.
import type { lookup } from 'node:dns';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

import { freePort } from '@zkts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/commands/index.js';
import { DEFAULT_CONNECT_TIMEOUT } from '../../src/session.js';
import { sharedServer, uniqueRoot, zkts } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

const server = sharedServer();
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const STACK = /\n\s+at |node:internal/;
/**
 * "Fails fast" means: well before DEFAULT_CONNECT_TIMEOUT (15 s), which a retrying client would wait out. Half of
 * it, not a figure near what an idle machine takes (tens of ms), so a loaded machine cannot fail the test.
 */
const FAST = DEFAULT_CONNECT_TIMEOUT / 2;

/** The dns module's own exports object (the one Node's net module calls), which an ESM namespace import is not. */
const dns = createRequire(import.meta.url)('node:dns') as { lookup: typeof lookup };

/**
 * RFC 6761 §6.4: a `.invalid` name never resolves, and resolvers should answer so at once, without the network.
 * glibc asks the configured DNS server anyway: slow, or EAI_AGAIN instead of ENOTFOUND, when that server is busy or
 * unreachable. While `run` runs, this process's lookups of such names get the answer a conforming resolver gives
 * (Node's net module calls dns.lookup at connect time); every other name goes to the real resolver.
 */
async function withInvalidNamesUnresolvable<T>(run: () => Promise<T>): Promise<T> {
  const real = dns.lookup;
  const answer = (hostname: string, ...rest: unknown[]): void => {
    if (!/\.invalid\.?$/i.test(hostname)) {
      (real as (...args: unknown[]) => void)(hostname, ...rest);
      return;
    }
    const callback = rest.at(-1) as (err: NodeJS.ErrnoException) => void;
    const err: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname });
    process.nextTick(() => callback(err));
  };
  dns.lookup = answer as typeof dns.lookup;
  try {
    return await run();
  } finally {
    dns.lookup = real;
  }
}

/** Accepts connections and never answers: the handshake times out. */
let silent: Server;
/** Answers in HTTP, as the AdminServer's port does when given for the client port. */
let http: HttpServer;
const held: Socket[] = [];
beforeAll(async () => {
  silent = createServer((socket) => held.push(socket));
  http = createHttpServer((_request, response) => response.end('not ZooKeeper'));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
  await new Promise((resolve) => http.close(resolve));
});

describe('connecting', { timeout: 120_000 }, () => {
  it('fails after one pass when every host refuses, naming ECONNREFUSED, well before the connect timeout', async () => {
    const closed = `127.0.0.1:${await freePort()}`;
    // The CLI's own logic, in this process: no node start-up on a loaded machine in the measurement.
    const started = Date.now();
    const inProcess = await runInProcess(COMMANDS, ['--server', closed, 'ls', '/']);
    const elapsed = Date.now() - started;
    expect(inProcess.code).toBe(69);
    // One pass is the exact stderr below (one failure line); the bound only shows the timeout was not waited out.
    expect(elapsed).toBeLessThan(FAST);
    expect(inProcess.stderr).toBe(
      `zkts: ${closed}: connection refused [ECONNREFUSED]\n` +
        `zkts: ls: cannot connect to ${closed}: every host refused or is unknown (${closed}: connection refused [ECONNREFUSED])\n`,
    );
    // The real executable too, with a bound that only excludes waiting out the 15 s default.
    const spawnedAt = Date.now();
    const spawned = await zkts(['--server', closed, 'ls', '/']);
    expect(Date.now() - spawnedAt).toBeLessThan(10_000);
    expect(spawned.code).toBe(69);
    expect(spawned.stderr).toMatch(/ECONNREFUSED/);
    expect(spawned.stderr).not.toMatch(STACK);
  });

  it('fails fast when one host refuses and the other does not resolve, and says both in JSON', async () => {
    const closed = `127.0.0.1:${await freePort()}`;
    const unknown = 'no-such-host.invalid:2181';
    const started = Date.now();
    const result = await withInvalidNamesUnresolvable(() => runInProcess(COMMANDS, ['--server', `${closed},${unknown}`, '--json', 'ls', '/']));
    expect(Date.now() - started).toBeLessThan(FAST);
    expect(result.code).toBe(69);
    const lines = result.stderr.trim().split('\n').map((l) => JSON.parse(l) as { error: Record<string, unknown> });
    expect(lines.slice(0, -1).map((l) => l.error)).toEqual(
      expect.arrayContaining([
        { code: 'ECONNREFUSED', message: `${closed}: connection refused`, host: closed },
        { code: 'ENOTFOUND', message: `${unknown}: host not found`, host: unknown },
      ]),
    );
    expect(lines.at(-1)?.error).toMatchObject({
      code: 'UNAVAILABLE',
      exitCode: 69,
      command: 'ls',
      attempts: [
        { host: closed, code: 'ECONNREFUSED', message: 'connection refused' },
        { host: unknown, code: 'ENOTFOUND', message: 'host not found' },
      ],
    });
  });

  it("a connect timeout names each host's last failure", async () => {
    const closed = `127.0.0.1:${await freePort()}`;
    const quiet = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
    // Session timeout 2 s: each handshake gets a third of it (with up to three hosts), so the silent host fails
    // within --timeout.
    const result = await runInProcess(COMMANDS, ['--server', `${closed},${quiet}`, '--session-timeout', '2000', '--timeout', '4000', 'ls', '/']);
    expect(result.code).toBe(69);
    const last = result.stderr.trim().split('\n').at(-1) ?? '';
    expect(last).toMatch(new RegExp(`^zkts: ls: cannot connect to ${closed},${quiet} within 4000 ms \\(`));
    expect(last).toContain(`${closed}: connection refused [ECONNREFUSED]`);
    expect(last).toContain(`${quiet}: no handshake reply from ${quiet} within 666 ms [CONNECTION_LOSS]`);
    // Each host's failure was also said as it happened, once.
    expect(result.stderr.split('\n').filter((l) => l.startsWith(`zkts: ${quiet}: `))).toHaveLength(1);
    expect(result.stderr.split('\n').filter((l) => l.startsWith(`zkts: ${closed}: `))).toHaveLength(1);
  });

  it('says at once that an HTTP endpoint is not a ZooKeeper client port, instead of a frame length and a wait', async () => {
    const web = `127.0.0.1:${(http.address() as AddressInfo).port}`;
    const started = Date.now();
    const result = await runInProcess(COMMANDS, ['--server', web, 'ls', '/']);
    expect(Date.now() - started).toBeLessThan(FAST);
    expect(result.code).toBe(69);
    const said = 'not a ZooKeeper client port (an HTTP server: the AdminServer?) [NOT_ZOOKEEPER]';
    expect(result.stderr).toBe(`zkts: ${web}: ${said}\nzkts: ls: cannot connect to ${web}: it is not a ZooKeeper client port (${web}: ${said})\n`);
    expect(result.stderr).not.toMatch(/frame length/);
    const mixed = await runInProcess(COMMANDS, ['--server', `${web},127.0.0.1:${await freePort()}`, 'ls', '/']);
    expect(mixed.stderr).toMatch(/cannot connect to \S+: every host refused, is unknown or is not a ZooKeeper client port \(/);
  });

  it('a silent server is "no handshake reply", as the README says, even when the timeout comes first', async () => {
    const quiet = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
    // The default session timeout gives the handshake 10 s: --timeout ends the wait long before it fails.
    const result = await runInProcess(COMMANDS, ['--server', quiet, '--timeout', '1500', 'ls', '/']);
    expect(result.code).toBe(69);
    expect(result.stderr).toMatch(new RegExp(`^zkts: ls: cannot connect to ${quiet} within 1500 ms \\(${quiet}: no handshake reply from ${quiet} within 1\\d{3} ms \\[CONNECTION_LOSS\\]\\)\n$`));
    expect(readme).toContain('`no handshake\nreply … [CONNECTION_LOSS]`');
  });

  it('names a URL scheme, an empty host and a missing chroot in words', async () => {
    const [scheme, empty, trailing, missingChroot, missingJson] = await Promise.all([
      runInProcess(COMMANDS, ['--server', 'zk://127.0.0.1:2181', 'ls', '/']),
      runInProcess(COMMANDS, ['--server', 'a:2181,,b:2181', 'ls', '/']),
      runInProcess(COMMANDS, ['--server', 'a:2181,', 'ruok']),
      zkts(['--server', `${server}${uniqueRoot('nochroot')}`, 'ls', '/']),
      runInProcess(COMMANDS, ['--server', `${server}/no/such/chroot`, '--json', 'get', '/x']),
    ]);
    expect(scheme.code).toBe(64);
    expect(scheme.stderr).toMatch(/^zkts: ls: --server 'zk:\/\/127\.0\.0\.1:2181': connect strings have no scheme: use host:port\[,host:port\]\[\/chroot\]\n/);
    expect(empty.code).toBe(64);
    expect(empty.stderr).toMatch(/^zkts: ls: --server 'a:2181,,b:2181': host 2 of 3 is empty \(stray comma\?\)\n/);
    expect(trailing).toMatchObject({ code: 64, stderr: expect.stringMatching(/host 2 of 2 is empty/) });
    expect(missingChroot.code).toBe(2);
    expect(missingChroot.stderr).toMatch(/^zkts: ls: the chroot \/nochroot-[0-9a-f]+ given in --server does not exist on 127\.0\.0\.1:\d+ \(NO_NODE on \/nochroot-[0-9a-f]+ itself\); create it first: /);
    expect(missingJson.code).toBe(2);
    expect(JSON.parse(missingJson.stderr)).toMatchObject({ error: { code: 'NO_NODE', exitCode: 2, command: 'get', message: expect.stringMatching(/^the chroot \/no\/such\/chroot given in --server does not exist/) } });
  });
});
