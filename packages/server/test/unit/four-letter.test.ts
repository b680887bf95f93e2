// Four-letter words on our server alone: the default whitelist (srvr only, as ZooKeeper 3.8), a word split
// across writes, '*', the counters moving with requests, and a client connecting beside them unharmed.
import { connect as netConnect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fourLetter, parseMntr } from '@zkts/testkit';
import { createClient } from '@zkts/protocol';
import { startServer } from '@zkts/server';

/** Sends `parts` one write at a time and reads until the server closes. */
function sendInParts(port: number, parts: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = netConnect({ host: '127.0.0.1', port }, () => {
      parts.forEach((p, i) => setTimeout(() => socket.write(p), i * 20));
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe('four-letter words', () => {
  it('default whitelist: srvr only; others get the whitelist message', async () => {
    await using server = await startServer();
    const at = { host: '127.0.0.1', port: server.port };
    expect(await fourLetter(at, 'srvr')).toMatch(/^Zookeeper version: 3\.8\.0-.*\nLatency min\/avg\/max: \d+\/[\d.]+\/\d+\nReceived: \d+\n/);
    for (const word of ['ruok', 'mntr', 'stat', 'cons']) {
      expect(await fourLetter(at, word)).toBe(`${word} is not executed because it is not in the whitelist.\n`);
    }
  });

  it("'*' enables every word; a word split across writes is still a word; counters follow requests", async () => {
    await using server = await startServer({ fourLetterWords: ['*'] });
    expect(await sendInParts(server.port, ['ru', 'o', 'k'])).toBe('imok');
    const zk = await createClient(server.connectString, { sessionTimeout: 4000 }).connect();
    await zk.create('/n', 'data');
    await zk.create('/n/e', '', { mode: 'ephemeral' });
    await zk.getData('/n', { watch: () => undefined });
    const m = parseMntr(await fourLetter({ host: '127.0.0.1', port: server.port }, 'mntr'));
    expect(m.get('zk_znode_count')).toBe('7');
    expect(m.get('zk_ephemerals_count')).toBe('1');
    expect(m.get('zk_watch_count')).toBe('1');
    expect(m.get('zk_global_sessions')).toBe('1');
    expect(Number(m.get('zk_packets_received'))).toBeGreaterThanOrEqual(5);
    expect(Number(m.get('zk_approximate_data_size'))).toBe(1 + 10 + 16 + 17 + 2 + 4 + 4);
    const cons = await fourLetter({ host: '127.0.0.1', port: server.port }, 'cons');
    expect(cons).toMatch(/\[1\]\(queued=0,recved=\d+,sent=\d+,sid=0x[0-9a-f]+,lop=GETD,est=\d+,to=4000,lcxid=0x3,lzxid=0x3,/);
    expect(await fourLetter({ host: '127.0.0.1', port: server.port }, 'wchp')).toBe(`/n\n\t0x${BigInt.asUintN(64, BigInt(zk.sessionId)).toString(16)}\n\n`);
    // The session still works after the words were served on other connections.
    expect(new TextDecoder().decode((await zk.getData('/n')).data)).toBe('data');
    await zk.close();
  });
});
