import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { javaRuntime } from '@zkts/testkit';
import { describe, expect, it } from 'vitest';

import { collect, jsonLines, sharedServer, spawnZkts, uniqueRoot, waitForOutput, zkts } from '../support/cli.js';

const server = sharedServer();
const serverPort = Number(server.slice(server.lastIndexOf(':') + 1));
const dir = mkdtempSync(join(tmpdir(), 'zkts-traffic-'));

/** One zkts session doing a bit of everything, through `zkts shell` so it is a single connection. */
function sessionScript(root: string): string {
  return [
    `create ${root} hello`,
    `create -s ${root}/seq- one`,
    `create -e ${root}/eph`,
    `get ${root}`,
    `set ${root} world -v 0`,
    `set ${root} stale -v 0`,
    `ls -R ${root}`,
    `stat ${root}/missing`,
    `acl get ${root}`,
    'auth digest:alice:pw',
    'whoami',
    `rm -r ${root}`,
    '',
  ].join('\n');
}

type Entry = Record<string, unknown> & { kind?: string; op?: string; err?: string };

function expectComplete(entries: Entry[]): void {
  const frames = entries.filter((e) => typeof e['kind'] === 'string');
  expect(frames.filter((e) => e.kind === 'error')).toEqual([]);
  const requests = frames.filter((e) => e.kind === 'request');
  const replies = frames.filter((e) => e.kind === 'reply');
  expect(replies.length).toBe(requests.length);
  expect(frames.filter((e) => e.kind === 'connect')).toHaveLength(1);
  expect(frames.filter((e) => e.kind === 'connected')).toHaveLength(1);
  // The zkts client sends create2/getChildren2 (they return the Stat).
  for (const op of ['create2', 'getData', 'setData', 'getChildren2', 'exists', 'getACL', 'whoAmI', 'delete', 'closeSession']) {
    expect(requests.map((r) => r.op), op).toContain(op);
  }
  expect(replies.some((r) => r.op === 'setData' && r.err === 'BAD_VERSION')).toBe(true);
  expect(frames.some((e) => e.kind === 'auth' && e['dir'] === 'c2s')).toBe(true);
}

async function tcpdump(args: string[], file: string): Promise<{ stop: () => Promise<void> }> {
  // --immediate-mode: without it libpcap holds packets in its ring buffer for up to a second, and a capture
  // stopped sooner than that loses them. -B: a larger kernel buffer (KiB), so a busy machine that is slow to
  // schedule tcpdump does not drop packets of the session under test.
  const child = spawn('tcpdump', [...args, '--immediate-mode', '-B', '16384', '-w', file, '-U', 'tcp', 'port', String(serverPort)], { stdio: ['ignore', 'ignore', 'pipe'] });
  const output = collect(child);
  await waitForOutput(output.stderr, /listening on/);
  return {
    stop: async () => {
      child.kill('SIGINT');
      await output.done;
    },
  };
}

// Every test spawns the CLI (node + tsx) several times; on two shared cores that can take minutes.
describe('traffic: decode and proxy against a real server', { timeout: 300_000 }, () => {
  it('decodes every frame of a tcpdump capture of a zkts session (Ethernet and SLL2 link types)', async () => {
    const root = uniqueRoot('pcap');
    const loFile = join(dir, 'lo.pcap');
    const anyFile = join(dir, 'any.pcap');
    const [lo, any] = await Promise.all([tcpdump(['-i', 'lo'], loFile), tcpdump(['-i', 'any', '-y', 'LINUX_SLL2'], anyFile)]);
    const session = await zkts(['--server', server, 'shell'], { input: sessionScript(root), env: { ZKTS_HISTORY: '' } });
    expect(session.stderr).toMatch(/BAD_VERSION/);
    // Let the final FIN/ACKs reach the capture before stopping it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await Promise.all([lo.stop(), any.stop()]);
    for (const file of [loFile, anyFile]) {
      // Other test files use the server meanwhile: their connections may be cut by the start or the end of
      // the capture (and be reported so); the checks below are about our own session's connection.
      const decoded = await zkts(['decode', '--json', '--port', String(serverPort), file]);
      const entries = jsonLines(decoded.stdout) as Entry[];
      // Other tests share the server: keep the connection that created our root.
      const ours = entries.find((e) => e['op'] === 'create2' && e['path'] === root)?.['conn'];
      expect(ours, file).toBeDefined();
      expectComplete(entries.filter((e) => e['conn'] === ours));
      expect(decoded.stderr).not.toContain(`#${String(ours)}:`);
      if (file !== loFile) continue;
      const readable = await zkts(['decode', '--port', String(serverPort), file]);
      expect(readable.stdout).toMatch(new RegExp(`^#${String(ours)} +\\d+\\.\\d{3} <- reply xid=\\d+ setData ${root} BAD_VERSION zxid=0x[0-9a-f]+ \\(\\d+(\\.\\d{1,3})? ms\\)$`, 'm'));
    }
  });

  it('proxies the zkts client and the Java client unchanged, printing every frame, and --record round-trips', async () => {
    const root = uniqueRoot('proxy');
    const record = join(dir, 'proxy.json');
    const proxy = spawnZkts(['proxy', '--json', '--listen', '0', '--upstream', server, '--record', record]);
    const proxyOutput = collect(proxy);
    const [, port] = await waitForOutput(proxyOutput.stderr, /listening on 127\.0\.0\.1:(\d+)/);
    const via = `127.0.0.1:${port}`;
    const session = await zkts(['--server', via, 'shell'], { input: sessionScript(root), env: { ZKTS_HISTORY: '' } });
    expect(session.stdout).toMatch(/^hello$/m);
    expect(session.stdout).toContain(`${root}/eph`);

    // Java's own command line, through the proxy.
    const { java, classpath } = javaRuntime();
    const javaRun = collect(spawn(java, ['-cp', classpath, 'org.apache.zookeeper.ZooKeeperMain', '-server', via, 'ls', '/'], { stdio: ['ignore', 'pipe', 'pipe'] }));
    const javaResult = await javaRun.done;
    expect(javaResult.stdout).toMatch(/\[.*zookeeper.*\]/);

    await waitForOutput(proxyOutput.stdout, /"conn":1,"event":"close"/);
    proxy.kill('SIGINT');
    expect((await proxyOutput.done).code).toBe(0);
    const live = jsonLines(proxyOutput.stdout()) as Entry[];
    expectComplete(live.filter((e) => e['conn'] === 0));
    const javaConn = live.filter((e) => e['conn'] === 1);
    expect(javaConn.filter((e) => e.kind === 'error')).toEqual([]);
    // ZooKeeperMain's `ls /` asks getChildren2 (children + Stat).
    expect(javaConn.some((e) => e.kind === 'reply' && e.op === 'getChildren2' && e['path'] === '/'), JSON.stringify(javaConn)).toBe(true);
    // Replies carry the latency of their request.
    for (const reply of live.filter((e) => e.kind === 'reply')) expect(reply['latencyMs']).toEqual(expect.any(Number));

    const decoded = await zkts(['decode', '--json', record]);
    expect(decoded.code, decoded.stderr).toBe(0);
    const strip = (e: Entry): Entry => ({ ...e, t: undefined, latencyMs: undefined, event: undefined, client: undefined, server: undefined, upstream: undefined, reason: undefined });
    const frames = (entries: Entry[]): Entry[] => entries.filter((e) => e.kind !== undefined).map(strip);
    expect(frames(jsonLines(decoded.stdout) as Entry[])).toEqual(frames(live));
    expect(JSON.parse(readFileSync(record, 'utf8'))).toMatchObject({ connections: [{ id: 0 }, { id: 1 }] });
  });
});
