/**
 * Session ids and zxids read the same in every printer (decode, proxy's lines, decode --stats, txnlog, stat):
 * `0x` hex of the unsigned value, as ZooKeeper's logs write them, so one id can be followed from one tool's
 * output to another's and into a server log. The transcript is the shared Java-client recording, its session id
 * changed to one a server with id 129 hands out (the top bit set: a negative long on the wire).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { decode } from '../../src/commands/decode.js';
import { txnlog } from '../../src/commands/txnlog.js';
import { hexId, hexIdText } from '../../src/ids.js';
import { formatStat } from '../../src/output.js';
import { runInProcess } from '../support/run-in-process.js';

const fixture = new URL('../fixtures/java-client-session.json', import.meta.url).pathname;
const PERSISTENCE = fileURLToPath(new URL('../../../protocol/test/fixtures/persistence/', import.meta.url));

interface Transcript {
  connections: { frames: { dir: 'c2s' | 's2c'; t: number; hex: string }[] }[];
}

/** The fixture with the ConnectResponse's session id (bytes 8..15 of the payload) replaced. */
function withSessionId(id: bigint): string {
  const transcript = JSON.parse(readFileSync(fixture, 'utf8')) as Transcript;
  const frames = transcript.connections[0]?.frames ?? [];
  const connected = frames.find((f) => f.dir === 's2c');
  if (connected === undefined) throw new Error('no server frame in the fixture');
  const bytes = Buffer.from(connected.hex, 'hex');
  bytes.writeBigUInt64BE(id, 8);
  connected.hex = bytes.toString('hex');
  const file = join(mkdtempSync(join(tmpdir(), 'zkts-ids-')), 'session.json');
  writeFileSync(file, JSON.stringify(transcript));
  return file;
}

describe('64-bit ids in readable output', () => {
  it('are unsigned 0x hex, with -1 (ZooKeeper\'s "none") left as it is', () => {
    expect(hexId(0n)).toBe('0x0');
    expect(hexId(0x7881n)).toBe('0x7881');
    expect(hexId(BigInt.asIntN(64, 0x810000012a0f000dn))).toBe('0x810000012a0f000d');
    expect(hexId(-1n)).toBe('-1');
    expect(hexIdText('30849')).toBe('0x7881');
    expect(hexIdText('not a number')).toBe('not a number');
  });

  it('decode and decode --stats name the session and the zxids alike', async () => {
    const file = withSessionId(0x810000012a0f000dn);
    const [lines, stats] = await Promise.all([runInProcess([decode], ['decode', file]), runInProcess([decode], ['decode', '--stats', file])]);
    expect(lines.code, lines.stderr).toBe(0);
    expect(stats.code, stats.stderr).toBe(0);
    const text = lines.stdout.split('\n');
    expect(text).toContain('#0    0.003 -> connect protocolVersion=0 lastZxidSeen=0x0 timeOut=6000 sessionId=0x0 passwd=<16 bytes> readOnly=false');
    expect(text).toContain('#0    0.005 <- connected protocolVersion=0 timeOut=6000 sessionId=0x810000012a0f000d passwd=<16 bytes> readOnly=false expired=false');
    expect(text).toContain('#0    0.022 <- reply xid=2 create2 /pub-transcript/p OK zxid=0x7882 (0 ms) version=0 czxid=0x7882');
    expect(stats.stdout).toMatch(/^ {2}0x810000012a0f000d closed, 1 connection\(s\)/m);
    expect(stats.stdout).toMatch(/#0 0x810000012a0f000d getAllChildrenNumber/);
    // No id in decimal anywhere (the session id signed or unsigned, a zxid of the transcript).
    for (const output of [lines.stdout, stats.stdout]) {
      expect(output).not.toMatch(/-9151314/);
      expect(output).not.toMatch(/9295429/);
      expect(output).not.toMatch(/zxid=(?!0x)\d/);
    }
  });

  it('txnlog and stat print them the same way', async () => {
    const logged = await runInProcess([txnlog], ['txnlog', PERSISTENCE, '--op', 'createSession']);
    expect(logged.code, logged.stderr).toBe(0);
    for (const line of logged.stdout.trim().split('\n')) expect(line).toMatch(/^zxid=0x[0-9a-f]+ \S+ session=0x[0-9a-f]+ /);
    const stat = formatStat({
      czxid: 0x7881n, mzxid: 0x7882n, pzxid: 0x7883n, ctime: 0, mtime: 0, version: 0, cversion: 0, aversion: 0,
      ephemeralOwner: BigInt.asIntN(64, 0x810000012a0f000dn), dataLength: 0, numChildren: 0,
    });
    expect(stat).toContain('czxid = 0x7881');
    expect(stat).toContain('ephemeralOwner = 0x810000012a0f000d');
  });
});
