// Malformed input through the real executable: one clear line, a documented nonzero exit, never a stack trace.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { LinkType } from '../../src/pcap/index.js';
import { ipPacket, lengthPrefixed, pcap } from '../support/pcap-builder.js';
import { collect, sharedServer, spawnZkts, waitForOutput, zkts } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'zkts-malformed-'));
const STACK = /\n\s+at |Error:|node:internal/;

// Every test spawns the CLI (node + tsx) several times; on two shared cores that can take minutes.
describe('malformed input', { timeout: 300_000 }, () => {
  it('decode: truncated capture, garbage, broken transcript', async () => {
    const c = { src: '127.0.0.1', dst: '127.0.0.1', srcPort: 40000, dstPort: 2181 };
    const capture = pcap({ linkType: LinkType.RAW }, [
      { time: 1, frame: ipPacket({ ...c, seq: 1, flags: { syn: true } }) },
      { time: 2, frame: ipPacket({ ...c, seq: 2, payload: lengthPrefixed([1, 2, 3]) }) },
    ]);
    const files = {
      truncated: [capture.subarray(0, capture.length - 5), /zkts: decode: .*truncated\.pcap: truncated capture: record 2/],
      garbage: [new TextEncoder().encode('\u0000\u0001 not traffic'), /zkts: decode: .*garbage\.pcap is neither a pcap capture nor a JSON transcript\n$/],
      transcript: [new TextEncoder().encode('{"connections": 7}'), /zkts: decode: not a valid transcript: expected an object with a "connections" array\n$/],
    } as const;
    const results = await Promise.all(
      Object.entries(files).map(async ([name, [bytes]]) => {
        const file = join(dir, `${name}.pcap`);
        writeFileSync(file, bytes);
        return [name, await zkts(['decode', file])] as const;
      }),
    );
    for (const [name, result] of results) {
      expect(result.code, name).toBe(65);
      expect(result.stderr, name).toMatch(files[name as keyof typeof files][1]);
      expect(result.stderr, name).not.toMatch(STACK);
    }
  });

  it('proxy: a hostile upstream gets a decode error line and the bytes still flow', async () => {
    // Answers anything with a frame whose length is far beyond jute.maxbuffer, then garbage.
    const hostile = createServer((socket) => socket.on('data', () => socket.write(Buffer.from([0x40, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef]))));
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    try {
      const upstream = `127.0.0.1:${(hostile.address() as AddressInfo).port}`;
      const proxy = spawnZkts(['proxy', '--listen', '0', '--upstream', upstream]);
      const output = collect(proxy);
      const [, port] = await waitForOutput(output.stderr, /listening on 127\.0\.0\.1:(\d+)/);
      // A zkts command through it: the client must fail cleanly too (no server handshake ever completes).
      const run = await zkts(['--server', `127.0.0.1:${port}`, '--timeout', '2000', 'ls', '/']);
      expect(run.code).toBe(69);
      expect(run.stderr).not.toMatch(STACK);
      await waitForOutput(output.stdout, /<- DECODE ERROR frame length 1073741824 out of range/);
      // Still running and accepting connections.
      expect(proxy.exitCode).toBeNull();
      proxy.kill('SIGINT');
      const result = await output.done;
      expect(result.code).toBe(0);
      expect(result.stderr).not.toMatch(STACK);
    } finally {
      hostile.close();
    }
  });

  it('usage errors and a bad connect string are one line each', async () => {
    const results = await Promise.all([
      zkts(['--server', 'host:notaport', 'ls', '/']),
      zkts(['ls', '--timeout', 'soon', '/']),
      zkts(['--server', sharedServer(), 'create', '/x', '--acl', 'nonsense']),
    ]);
    for (const result of results) {
      expect(result.code).toBe(64);
      expect(result.stderr).not.toMatch(STACK);
    }
    expect(results[0]?.stderr).toMatch(/^zkts: ls: bad --server 'host:notaport': /);
    expect(results[1]?.stderr).toMatch(/^zkts: ls: --timeout must be an integer, got 'soon'\n/);
    expect(results[2]?.stderr).toMatch(/^zkts: create: bad ACL 'nonsense': expected scheme:id:perms\n/);
  });
});
