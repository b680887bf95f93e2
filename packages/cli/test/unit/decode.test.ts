import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { decode } from '../../src/commands/decode.js';
import { ExitCode } from '../../src/exit-codes.js';
import { LinkType } from '../../src/pcap/index.js';
import { jsonLines } from '../support/cli.js';
import { ipPacket, lengthPrefixed, pcap, sll } from '../support/pcap-builder.js';
import type { SegmentSpec } from '../support/pcap-builder.js';
import { runInProcess } from '../support/run-in-process.js';

const fixture = new URL('../fixtures/java-client-session.json', import.meta.url).pathname;
const transcript = JSON.parse(readFileSync(fixture, 'utf8')) as {
  javaClientLog: string[];
  connections: { frames: { dir: 'c2s' | 's2c'; hex: string }[] }[];
};
const dir = mkdtempSync(join(tmpdir(), 'zkts-decode-'));

type Line = Record<string, unknown> & { kind?: string; op?: string; err?: string; path?: string; body?: Record<string, unknown> };

const decodedLines = (stdout: string): Line[] => jsonLines(stdout) as Line[];

const body = (line: Line): Record<string, unknown> => line.body ?? {};
const stat = (line: Line): Record<string, unknown> => (body(line)['stat'] ?? {}) as Record<string, unknown>;

/** What each line of the Java program's log says, as a check on the reply (or event) that produced it. */
const expectations: [string, (line: Line) => boolean][] = [
  ['create /pub-transcript -> /pub-transcript', (l) => l.op === 'create' && l.err === 'OK' && body(l)['path'] === '/pub-transcript'],
  ['create2 /pub-transcript/p -> /pub-transcript/p czxid=30850', (l) => l.op === 'create2' && body(l)['path'] === '/pub-transcript/p' && stat(l)['czxid'] === '30850'],
  ['create eph-seq -> /pub-transcript/p/lock-0000000000', (l) => l.op === 'create' && body(l)['path'] === '/pub-transcript/p/lock-0000000000'],
  ['create eph-seq -> /pub-transcript/p/lock-0000000001', (l) => l.op === 'create' && body(l)['path'] === '/pub-transcript/p/lock-0000000001'],
  ['create container -> /pub-transcript/c', (l) => l.op === 'createContainer' && body(l)['path'] === '/pub-transcript/c'],
  ['createTTL -> UNIMPLEMENTED', (l) => l.op === 'createTTL' && l.err === 'UNIMPLEMENTED'],
  ['create /pub-transcript -> NODEEXISTS', (l) => l.op === 'create' && l.path === '/pub-transcript' && l.err === 'NODE_EXISTS'],
  ['create missing parent -> NONODE', (l) => l.op === 'create' && l.err === 'NO_NODE'],
  ['getData /pub-transcript watch -> hello version=0', (l) => l.op === 'getData' && (body(l)['data'] as { utf8?: string }).utf8 === 'hello' && stat(l)['version'] === 0],
  ['exists missing watch -> null', (l) => l.op === 'exists' && l.err === 'NO_NODE'],
  ['getChildren /pub-transcript/p watch -> [lock-0000000001, lock-0000000000]', (l) => l.op === 'getChildren' && JSON.stringify(body(l)['children']) === '["lock-0000000001","lock-0000000000"]'],
  ['getChildren2 /pub-transcript -> [p, c] numChildren=2', (l) => l.op === 'getChildren2' && JSON.stringify(body(l)['children']) === '["p","c"]' && stat(l)['numChildren'] === 2],
  ['setData /pub-transcript -> version=1', (l) => l.op === 'setData' && l.err === 'OK' && stat(l)['version'] === 1],
  ['setData bad version -> BADVERSION', (l) => l.op === 'setData' && l.err === 'BAD_VERSION'],
  ['create /pub-transcript/nope -> /pub-transcript/nope', (l) => l.op === 'create' && body(l)['path'] === '/pub-transcript/nope'],
  ['multi ok -> 4 results', (l) => l.op === 'multi' && (body(l)['results'] as unknown[]).length === 4 && body(l)['failed'] === undefined],
  ['multi failing -> BADVERSION', (l) => l.op === 'multi' && (body(l)['failed'] as { err?: string } | undefined)?.err === 'BAD_VERSION'],
  ['multiRead -> 2 results', (l) => l.op === 'multiRead' && (body(l)['results'] as unknown[]).length === 2],
  ["getACL -> [31,s{'world,'anyone}", (l) => l.op === 'getACL' && JSON.stringify(body(l)['acl']) === '[{"perms":31,"id":{"scheme":"world","id":"anyone"}}]'],
  ['create with digest acl -> /pub-transcript/secret', (l) => l.op === 'create' && body(l)['path'] === '/pub-transcript/secret'],
  ['setACL -> aversion=1', (l) => l.op === 'setACL' && l.err === 'OK'],
  ['whoAmI -> 2 identities', (l) => l.op === 'whoAmI' && (body(l)['clientInfo'] as unknown[]).length === 2],
  ['addWatch persistentRecursive /pub-transcript/p -> ok', (l) => l.op === 'addWatch' && l.path === '/pub-transcript/p' && l.err === 'OK'],
  ['getEphemerals -> [/pub-transcript/p/lock-0000000000, /pub-transcript/p/lock-0000000001]', (l) => l.op === 'getEphemerals' && (body(l)['ephemerals'] as unknown[]).length === 2],
  ['getAllChildrenNumber -> 6', (l) => l.op === 'getAllChildrenNumber' && body(l)['totalNumber'] === 6],
  ['sync -> ok', (l) => l.op === 'sync' && l.err === 'OK'],
  ['delete /pub-transcript/nope -> ok', (l) => l.op === 'delete' && l.path === '/pub-transcript/nope' && l.err === 'OK'],
  ['delete non-empty -> NOTEMPTY', (l) => l.op === 'delete' && l.err === 'NOT_EMPTY'],
  // Java's removeWatches(path, watcher, type, local) goes out as opcode checkWatches (17).
  ['removeWatches -> ok', (l) => l.op === 'checkWatches' && l.err === 'OK'],
];

function writeTemp(name: string, content: string | Uint8Array): string {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

describe('zkts decode', () => {
  it("agrees with the Java client's own log of the shared transcript", async () => {
    const result = await runInProcess([decode], ['decode', '--json', fixture]);
    expect(result.stderr).toBe('1 connection(s): 70 frames, 31 requests, 31 replies, 4 events, 0 decode errors\n');
    expect(result.code).toBe(ExitCode.OK);
    const lines = decodedLines(result.stdout);
    const replies = lines.filter((l) => l.kind === 'reply');
    // Every line of the log with a result ("->") is covered, in order ("]" continues the getACL line).
    const logged = transcript.javaClientLog.filter((l) => l.includes(' -> '));
    expect(expectations.map(([text]) => text)).toEqual(logged);
    let at = 0;
    for (const [text, check] of expectations) {
      const found = replies.findIndex((reply, i) => i >= at && check(reply));
      expect(found, text).toBeGreaterThanOrEqual(at);
      at = found + 1;
    }
    const events = lines.filter((l) => l.kind === 'event').map((l) => `event ${String(body(l)['type'])} ${String(l.path)}`);
    for (const event of transcript.javaClientLog.filter((l) => l.startsWith('event '))) expect(events).toContain(event);
    expect(lines.filter((l) => l.kind === 'request')).toHaveLength(replies.length);
    expect(lines.some((l) => l.kind === 'error')).toBe(false);
  });

  it('prints one readable line per frame with xid, op, path, result and latency', async () => {
    const result = await runInProcess([decode], ['decode', fixture]);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(71);
    expect(lines[0]).toBe('#0 open');
    expect(lines).toContain('#0    0.011 -> request xid=1 create /pub-transcript data="hello" acl=[world:anyone:cdrwa] flags=PERSISTENT');
    expect(lines).toContain('#0    0.013 <- reply xid=1 create /pub-transcript OK zxid=0x7881 (2 ms)');
    expect(lines).toContain('#0    0.032 <- reply xid=3 create /pub-transcript/p/lock- OK zxid=0x7883 (1 ms) path=/pub-transcript/p/lock-0000000000');
    expect(lines).toContain('#0    0.059 <- event NodeDataChanged /pub-transcript state=SyncConnected');
    expect(lines).toContain('#0    0.128 <- reply xid=28 delete /pub-transcript/p NOT_EMPTY zxid=0x7891 (1 ms)');
  });

  it('decodes the same conversation from a pcap with segments split, reordered and retransmitted', async () => {
    const frames = transcript.connections[0]?.frames ?? [];
    const c = { src: '127.0.0.1', dst: '127.0.0.1', srcPort: 51000, dstPort: 2181 };
    const s = { src: '127.0.0.1', dst: '127.0.0.1', srcPort: 2181, dstPort: 51000 };
    const seq = { c2s: 7001, s2c: 90001 };
    const segments: SegmentSpec[] = [{ ...c, seq: 7000, flags: { syn: true } }, { ...s, seq: 90000, flags: { syn: true, ack: true } }];
    frames.forEach((frame, i) => {
      const bytes = lengthPrefixed([...Buffer.from(frame.hex, 'hex')]);
      const ends = frame.dir === 'c2s' ? c : s;
      const start = seq[frame.dir];
      seq[frame.dir] += bytes.length;
      // Every third frame goes out in two pieces, the second piece first, then the first twice.
      if (i % 3 === 0 && bytes.length > 6) {
        const cut = 3;
        segments.push({ ...ends, seq: start + cut, payload: bytes.subarray(cut) }, { ...ends, seq: start, payload: bytes.subarray(0, cut) }, { ...ends, seq: start, payload: bytes.subarray(0, cut) });
      } else {
        segments.push({ ...ends, seq: start, payload: bytes });
      }
    });
    const capture = pcap({ linkType: LinkType.LINUX_SLL, littleEndian: false }, segments.map((spec, i) => ({ time: 1_795_325_588_666 + i, frame: sll(ipPacket(spec)) })));
    const file = writeTemp('java.pcap', capture);
    const fromPcap = await runInProcess([decode], ['decode', '--json', file]);
    const fromTranscript = await runInProcess([decode], ['decode', '--json', fixture]);
    expect(fromPcap.code).toBe(ExitCode.OK);
    const strip = (l: Line): Line => ({ ...l, t: undefined, latencyMs: undefined, client: undefined, server: undefined });
    expect(decodedLines(fromPcap.stdout).map(strip)).toEqual(decodedLines(fromTranscript.stdout).map(strip));
    expect(decodedLines(fromPcap.stdout)[0]).toMatchObject({ client: '127.0.0.1:51000', server: '127.0.0.1:2181' });
  });

  it('reports a truncated capture after decoding what it holds, with exit 65', async () => {
    const c = { src: '::1', dst: '::1', srcPort: 51000, dstPort: 2181 };
    const connect = lengthPrefixed([...Buffer.from(transcript.connections[0]?.frames[0]?.hex ?? '', 'hex')]);
    const bytes = pcap({ linkType: LinkType.RAW }, [
      { time: 1000, frame: ipPacket({ ...c, seq: 1, flags: { syn: true } }) },
      { time: 1001, frame: ipPacket({ ...c, seq: 2, payload: connect }) },
      { time: 1002, frame: ipPacket({ ...c, seq: 2 + connect.length, payload: connect }) },
    ]);
    const file = writeTemp('cut.pcap', bytes.subarray(0, bytes.length - 20));
    const result = await runInProcess([decode], ['decode', file]);
    expect(result.code).toBe(ExitCode.DATA_ERROR);
    expect(result.stdout).toContain('#0 open [::1]:51000 -> [::1]:2181');
    expect(result.stdout).toContain('-> connect protocolVersion=0');
    expect(result.stderr).toMatch(/zkts: decode: .*cut\.pcap: truncated capture: record 3 at byte \d+ needs \d+ bytes, only \d+ remain\n$/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects garbage and broken transcripts with one clear line and exit 65', async () => {
    const cases: [string, string, RegExp][] = [
      ['garbage.bin', 'hello, this is not traffic', /is neither a pcap capture nor a JSON transcript/],
      ['bad.json', '{"connections": [', /not a valid transcript: .*JSON/],
      ['shape.json', '{"connections": [{"frames": [{"dir": "up", "hex": "00"}]}]}', /connections\[0\]\.frames\[0\]\.dir must be "c2s" or "s2c"/],
      ['hex.json', '{"connections": [{"frames": [{"dir": "c2s", "hex": "zz"}]}]}', /frames\[0\]\.hex is not a hex string/],
    ];
    for (const [name, content, message] of cases) {
      const result = await runInProcess([decode], ['decode', writeTemp(name, content)]);
      expect(result.code, name).toBe(ExitCode.DATA_ERROR);
      expect(result.stderr, name).toMatch(message);
      expect(result.stderr.trim().split('\n'), name).toHaveLength(1);
      expect(result.stdout, name).toBe('');
    }
    const missing = await runInProcess([decode], ['decode', join(dir, 'nope.pcap')]);
    expect(missing.code).toBe(ExitCode.NO_INPUT);
    expect(missing.stderr).toMatch(/cannot read .*nope\.pcap: ENOENT/);
  });

  it('turns an undecodable frame into an error line and keeps going', async () => {
    const frames = transcript.connections[0]?.frames.slice(0, 4) ?? [];
    const broken = { connections: [{ id: 3, start: 0, frames: [...frames.slice(0, 2), { dir: 'c2s', t: 9, hex: '0000000100000001ffff' }, ...frames.slice(2)] }] };
    const result = await runInProcess([decode], ['decode', writeTemp('broken.json', JSON.stringify(broken))]);
    expect(result.code).toBe(ExitCode.DATA_ERROR);
    expect(result.stdout).toMatch(/#3 {4}0\.009 -> DECODE ERROR .+/);
    expect(result.stdout).toMatch(/<- reply xid=1 create .*OK/);
    expect(result.stderr).toContain('1 decode errors');
  });

  it('skips a connection the capture joined mid-stream, saying so', async () => {
    const c = { src: '127.0.0.1', dst: '127.0.0.1', srcPort: 51000, dstPort: 2181 };
    const request = lengthPrefixed([...Buffer.from(transcript.connections[0]?.frames[2]?.hex ?? '', 'hex')]);
    const file = writeTemp('late.pcap', pcap({ linkType: LinkType.RAW }, [{ time: 5, frame: ipPacket({ ...c, seq: 777, payload: request }) }]));
    const result = await runInProcess([decode], ['decode', file]);
    expect(result.code).toBe(ExitCode.OK);
    expect(result.stdout).toBe('#0 skipped 127.0.0.1:51000 -> 127.0.0.1:2181: the capture started after this connection opened (no SYN), so it is not decoded\n');
    expect(result.stderr).toBe('0 connection(s) (1 joined mid-stream, skipped): 0 frames, 0 requests, 0 replies, 0 events, 0 decode errors\n');
  });

  it('reads the file from stdin with -', async () => {
    const result = await runInProcess([decode], ['decode', '-'], readFileSync(fixture, 'utf8'));
    expect(result.code).toBe(ExitCode.OK);
    expect(result.stdout.trim().split('\n')).toHaveLength(71);
  });

  it('needs a file and knows --port', async () => {
    expect((await runInProcess([decode], ['decode'])).stderr).toBe('zkts: decode: missing FILE\nusage: zkts decode FILE [--port PORT] [--stats]\n');
    expect((await runInProcess([decode], ['decode', '--port', 'x', fixture])).code).toBe(ExitCode.USAGE);
    const help = await runInProcess([decode], ['decode', '--help']);
    expect(help.code).toBe(ExitCode.OK);
    expect(help.stdout).toMatch(/^usage: zkts decode FILE \[--port PORT\] \[--stats\]\n/);
  });
});
