import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { decode } from '../../src/commands/decode.js';
import { proxy } from '../../src/commands/proxy.js';
import { ExitCode } from '../../src/exit-codes.js';
import { lengthPrefixed } from '../support/pcap-builder.js';
import { runInProcess, startInProcess } from '../support/run-in-process.js';
import { until } from '../support/wait.js';

const fixture = new URL('../fixtures/java-client-session.json', import.meta.url).pathname;
const frames = (JSON.parse(readFileSync(fixture, 'utf8')) as { connections: { frames: { dir: 'c2s' | 's2c'; hex: string }[] }[] }).connections[0]?.frames ?? [];
const framed = (i: number): Uint8Array => lengthPrefixed([...Buffer.from(frames[i]?.hex ?? '', 'hex')]);

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

/** A fake upstream that answers each client with the given script: (socket, data) => reply bytes. */
async function fakeUpstream(onData: (socket: Socket, data: Buffer) => void): Promise<number> {
  const server: Server = createServer((socket) => socket.on('data', (data: Buffer) => onData(socket, data)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => server.close());
  return (server.address() as AddressInfo).port;
}

function clientTo(port: number): { socket: Socket; received: () => Buffer } {
  const socket = connect({ host: '127.0.0.1', port });
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => undefined);
  cleanup.push(() => socket.destroy());
  return { socket, received: () => Buffer.concat(chunks) };
}

describe('zkts proxy (fake upstream)', () => {
  it('forwards a hostile upstream byte for byte, prints a decode error and keeps running', async () => {
    const garbage = Buffer.concat([Buffer.from(framed(1)), Buffer.from([0x7f, 0xff, 0xff, 0xff]), Buffer.from('garbage after a huge length')]);
    const upstream = await fakeUpstream((socket) => socket.write(garbage));
    const running = startInProcess([proxy], ['proxy', '--listen', '0', '--upstream', `127.0.0.1:${upstream}`]);
    const [, port] = await running.waitFor(/listening on 127\.0\.0\.1:(\d+)/);
    const client = clientTo(Number(port));
    client.socket.write(framed(0));
    await until(() => client.received().length === garbage.length, 'garbage forwarded');
    expect(client.received().equals(garbage)).toBe(true);
    await running.waitFor(/DECODE ERROR frame length 2147483647 out of range/);
    expect(running.stdout()).toMatch(/#0 +0\.\d{3} <- connected protocolVersion=0 timeOut=6000/);
    // Still forwarding after the error, in both directions.
    client.socket.write(framed(2));
    await until(() => client.received().length === 2 * garbage.length, 'second answer forwarded');
    await running.waitFor(/-> request xid=1 create \/pub-transcript/);
    // And a second connection decodes from scratch.
    const second = clientTo(Number(port));
    second.socket.write(framed(0));
    await running.waitFor(/#1 +0\.\d{3} -> connect/);
    running.abort();
    expect(await running.done).toBe(ExitCode.OK);
    expect(running.stderr()).not.toMatch(/\n\s+at /);
  });

  it('says which frame a garbage client sent without crashing', async () => {
    const upstream = await fakeUpstream(() => undefined);
    const running = startInProcess([proxy], ['proxy', '--json', '--listen', '127.0.0.1:0', '--upstream', `127.0.0.1:${upstream}`]);
    const [, port] = await running.waitFor(/listening on 127\.0\.0\.1:(\d+)/);
    const client = clientTo(Number(port));
    client.socket.write(Buffer.from([0, 0, 0, 3, 1, 2, 3]));
    await running.waitFor(/"kind":"error"/);
    const line = running.stdout().split('\n').find((l) => l.includes('"kind":"error"')) ?? '';
    expect(JSON.parse(line)).toMatchObject({ conn: 0, dir: 'c2s', kind: 'error' });
    running.abort();
    expect(await running.done).toBe(ExitCode.OK);
  });

  it('records a transcript that decode reads back into the same conversation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zkts-proxy-'));
    const record = join(dir, 'session.json');
    // Replays the Java session's server side: every client frame gets the server frames that followed it.
    let next = 0;
    const upstream = await fakeUpstream((socket) => {
      while (frames[next]?.dir === 'c2s') next++;
      const out: Uint8Array[] = [];
      while (frames[next]?.dir === 's2c') out.push(framed(next++));
      socket.write(Buffer.concat(out));
    });
    const running = startInProcess([proxy], ['proxy', '--listen', '0', '--upstream', `127.0.0.1:${upstream}`, '--record', record]);
    const [, port] = await running.waitFor(/listening on 127\.0\.0\.1:(\d+)/);
    const client = clientTo(Number(port));
    const c2s = frames.map((f, i) => (f.dir === 'c2s' ? i : -1)).filter((i) => i >= 0);
    const s2cBytes = frames.reduce((n, f, i) => (f.dir === 's2c' ? n + framed(i).length : n), 0);
    // One request at a time, like the recorded client, so the replay stays in step.
    for (const i of c2s.slice(0, 10)) {
      const before = client.received().length;
      client.socket.write(framed(i));
      await until(() => client.received().length > before, `answer to frame ${i}`);
    }
    expect(client.received().length).toBeLessThan(s2cBytes);
    client.socket.end();
    await running.waitFor(/#0 closed/);
    running.abort();
    expect(await running.done).toBe(ExitCode.OK);
    const live = running.stdout().split('\n').filter((l) => / (->|<-) /.test(l));
    const decoded = await runInProcess([decode], ['decode', record]);
    expect(decoded.code).toBe(ExitCode.OK);
    const replayed = decoded.stdout.split('\n').filter((l) => / (->|<-) /.test(l));
    const withoutTimes = (l: string): string => l.replace(/^#0 +\d+\.\d{3} /, '').replace(/ \(\d+(\.\d+)? ms\)/, '');
    // Latencies to the microsecond: a local reply takes a fraction of a millisecond, and tenths hide it.
    expect(live.filter((l) => /\(\d+\.\d{2,3} ms\)/.test(l)).length).toBeGreaterThan(0);
    expect(replayed.map(withoutTimes)).toEqual(live.map(withoutTimes));
    expect(replayed.length).toBeGreaterThan(15);
    expect(JSON.parse(readFileSync(record, 'utf8'))).toMatchObject({ connections: [{ id: 0, frames: expect.any(Array) }] });
  });

  it('needs --listen and --upstream, and a usable upstream address', async () => {
    expect((await runInProcess([proxy], ['proxy', '--upstream', 'h:1'])).stderr).toMatch(/missing --listen/);
    expect((await runInProcess([proxy], ['proxy', '--listen', '0'])).stderr).toMatch(/missing --upstream/);
    const bad = await runInProcess([proxy], ['proxy', '--listen', '0', '--upstream', 'nohost']);
    expect(bad.code).toBe(ExitCode.USAGE);
    expect(bad.stderr).toMatch(/--upstream: missing port in 'nohost'/);
  });
});
