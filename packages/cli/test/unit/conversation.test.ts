import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { ConnectionConversation } from '../../src/conversation.js';
import { lengthPrefixed } from '../support/pcap-builder.js';

const fixture = new URL('../fixtures/java-client-session.json', import.meta.url).pathname;
const frames = (JSON.parse(readFileSync(fixture, 'utf8')) as { connections: { frames: { hex: string }[] }[] }).connections[0]?.frames ?? [];
const framed = (i: number): Buffer => Buffer.from(lengthPrefixed([...Buffer.from(frames[i]?.hex ?? '', 'hex')]));

describe('ConnectionConversation', () => {
  it('measures reply latency from the matching request', () => {
    const c = new ConnectionConversation(4, 1000);
    c.bytes('c2s', framed(0), 1001);
    c.bytes('s2c', framed(1), 1003);
    const [request] = c.bytes('c2s', framed(2), 1010);
    const [reply] = c.bytes('s2c', framed(3), 1012.5);
    expect(request).toMatchObject({ conn: 4, t: 10, dir: 'c2s', entry: { kind: 'request', xid: 1, op: 'create' } });
    expect(reply).toMatchObject({ t: 12.5, latencyMs: 2.5, entry: { kind: 'reply', xid: 1, err: 'OK' } });
    expect(c.counts).toEqual({ frames: 4, requests: 1, replies: 1, events: 0, errors: 0 });
  });

  it('still decodes a frame completed in the chunk that also carries a bad length', () => {
    const c = new ConnectionConversation(0, 0);
    c.bytes('c2s', framed(0), 1);
    const reply = framed(1);
    // The server's first frame arrives in three pieces; the third also holds a hostile length prefix.
    expect(c.bytes('s2c', reply.subarray(0, 2), 2)).toEqual([]);
    expect(c.bytes('s2c', reply.subarray(2, 20), 3)).toEqual([]);
    const lines = c.bytes('s2c', Buffer.concat([reply.subarray(20), Buffer.from([0xff, 0, 0, 0, 1])]), 4);
    expect(lines.map((l) => l.entry.kind)).toEqual(['connected', 'error']);
    expect(lines[1]?.entry.error).toMatch(/^frame length -16777216 out of range .*; no longer decoding server bytes/);
    // The other direction goes on.
    expect(c.bytes('c2s', framed(2), 5).map((l) => l.entry.op)).toEqual(['create']);
    expect(c.bytes('s2c', framed(3), 6)).toEqual([]);
  });

  it('says when a connection ends inside a frame', () => {
    const c = new ConnectionConversation(0, 0);
    c.bytes('c2s', framed(0).subarray(0, 10), 1);
    expect(c.end(2).map((l) => l.entry.error)).toEqual(['connection ended inside a frame (10 bytes of it seen)']);
  });
});
