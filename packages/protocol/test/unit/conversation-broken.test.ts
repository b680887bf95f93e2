// The conversation decoder (@zkts/protocol/inspect) on broken conversations: garbage, strict mode, replies out of
// order, unknown opcodes and codes, odd multiRead results, framing errors in a stream. The decoder on a whole
// recorded Java client session is in conversation.test.ts.
import { describe, expect, it } from 'vitest';
import { JuteWriter } from '../../src/codec/jute/writer.js';
import { OpCode } from '../../src/codec/records/constants.js';
import { writeReplyHeader } from '../../src/codec/records/headers.js';
import { frameWithLength } from '../../src/codec/frame.js';
import { writeMultiResponse } from '../../src/codec/multi.js';
import { writeRequestFrame } from '../../src/codec/ops.js';
import { ConversationDecoder, ConversationStream } from '../../src/inspect/conversation.js';
import { formatConversationEntry } from '../../src/inspect/format.js';
import { sessionFrames } from '../support/recorded-session.js';

const frames = sessionFrames();

describe('conversation decoder on broken conversations', () => {
  const w = new JuteWriter();
  const payload = (frame: Uint8Array): Uint8Array => frame.slice(4);

  function started(): ConversationDecoder {
    const d = new ConversationDecoder();
    d.decode('c2s', frames[0]!.frame);
    d.decode('s2c', frames[1]!.frame);
    return d;
  }

  it('turns garbage into error entries and keeps going', () => {
    const d = started();
    const bad = d.decode('c2s', new Uint8Array([0, 0, 0, 1, 0, 0]));
    expect(bad.kind).toBe('error');
    expect(bad.error).toMatch(/truncated int/);
    const hostile = d.decode('c2s', new Uint8Array([0, 0, 0, 1, 0, 0, 0, 4, 0x7f, 0xff, 0xff, 0xff]));
    expect(hostile.kind).toBe('error');
    expect(hostile.error).toMatch(/exceeds/);
    const good = d.decode('c2s', payload(writeRequestFrame(w.reset(), 5, OpCode.sync, { path: '/x' })));
    expect(good).toMatchObject({ kind: 'request', op: 'sync', path: '/x', xid: 5 });
    // The replies still line up: the hostile getData's header (xid 1) was remembered.
    w.reset();
    writeReplyHeader(w, { xid: 1, zxid: 3n, err: -101 });
    expect(d.decode('s2c', w.toBytes())).toMatchObject({ kind: 'reply', op: 'getData', err: 'NO_NODE' });
    expect(d.outstanding).toBe(1);
  });

  it('throws ProtocolError in strict mode', () => {
    const d = new ConversationDecoder({ strict: true });
    expect(() => d.decode('c2s', new Uint8Array([1, 2]))).toThrow(/truncated/);
  });

  it('notes replies out of order, unknown xids and unknown opcodes', () => {
    const d = started();
    d.decode('c2s', payload(writeRequestFrame(w.reset(), 7, OpCode.sync, { path: '/a' })));
    d.decode('c2s', payload(writeRequestFrame(w.reset(), 8, OpCode.getChildren, { path: '/b', watch: false })));
    const reply = (xid: number, body?: (w: JuteWriter) => void): Uint8Array => {
      w.reset();
      writeReplyHeader(w, { xid, zxid: 9n, err: 0 });
      body?.(w);
      return w.toBytes();
    };
    const late = d.decode('s2c', reply(8, (x) => x.writeVector(['c'], (y, s) => y.writeString(s))));
    expect(late).toMatchObject({ kind: 'reply', op: 'getChildren', path: '/b', body: { children: ['c'] } });
    expect(late.notes).toEqual(['xid out of order (expected xid 7)']);
    const stray = d.decode('s2c', reply(99));
    expect(stray.op).toBeUndefined();
    expect(stray.notes).toEqual(['no request with this xid (expected xid 7)']);
    expect(d.decode('s2c', reply(7, (x) => x.writeString('/a')))).toMatchObject({ op: 'sync', body: { path: '/a' } });
    const unknown = d.decode('c2s', new Uint8Array([0, 0, 0, 9, 0, 0, 0, 42, 1, 2]));
    expect(unknown).toMatchObject({ kind: 'request', op: 'op(42)', body: { raw: { length: 2, hex: '0102' } } });
    expect(unknown.notes).toEqual(['unknown opcode 42']);
    const raw = d.decode('s2c', reply(9, (x) => x.writeInt(1)));
    expect(raw).toMatchObject({ op: 'op(42)', body: { raw: { length: 4, hex: '00000001' } } });
    expect(raw.notes).toBeUndefined();
    d.decode('c2s', payload(writeRequestFrame(w.reset(), 10, OpCode.delete, { path: '/d', version: -1 })));
    const trailing = d.decode('s2c', reply(10, (x) => x.writeInt(1)));
    expect(trailing.notes).toEqual(['4 trailing bytes']);
    expect(formatConversationEntry(trailing)).toBe('s2c xid=10 zxid=0x9 delete /d OK (4 trailing bytes)');
  });

  it('reports an expired session and a server code outside the table', () => {
    const d = new ConversationDecoder();
    d.decode('c2s', frames[0]!.frame);
    w.reset();
    w.writeInt(0).writeInt(0).writeLong(0n).writeBuffer(new Uint8Array(16));
    const expired = d.decode('s2c', w.toBytes());
    expect(expired.body).toMatchObject({ expired: true, readOnly: null });
    expect(formatConversationEntry(expired)).toMatch(/^s2c connected EXPIRED /);
    d.decode('c2s', payload(writeRequestFrame(w.reset(), 1, OpCode.exists, { path: '/q', watch: false })));
    w.reset();
    writeReplyHeader(w, { xid: 1, zxid: 1n, err: -999 });
    const odd = d.decode('s2c', w.toBytes());
    expect(odd).toMatchObject({ err: 'SERVER_ERROR', errCode: -999 });
    expect(formatConversationEntry(odd)).toBe('s2c xid=1 zxid=0x1 exists /q SERVER_ERROR(-999)');
  });

  it('decodes a multiRead with a failed read and an unknown multi result type as an error entry', () => {
    const d = started();
    d.decode('c2s', payload(writeRequestFrame(w.reset(), 3, OpCode.multiRead, [
      { op: 'getData', path: '/a', watch: false },
      { op: 'getChildren', path: '/b', watch: false },
    ])));
    w.reset();
    writeReplyHeader(w, { xid: 3, zxid: 5n, err: 0 });
    writeMultiResponse(w, [{ op: 'error', err: -101 }, { op: 'getChildren', children: ['x'] }]);
    const rep = d.decode('s2c', w.toBytes());
    expect(rep.body).toEqual({ results: [{ op: 'error', err: 'NO_NODE', errCode: -101 }, { op: 'getChildren', children: ['x'] }] });
    d.decode('c2s', payload(writeRequestFrame(w.reset(), 4, OpCode.multi, [{ op: 'delete', path: '/a', version: -1 }])));
    w.reset();
    writeReplyHeader(w, { xid: 4, zxid: 5n, err: 0 });
    w.writeInt(77).writeBool(false).writeInt(0);
    const bad = d.decode('s2c', w.toBytes());
    expect(bad.kind).toBe('error');
    expect(bad.error).toMatch(/invalid multi result type 77/);
  });

  it('ConversationStream reports a framing error once and then ignores that direction', () => {
    const stream = new ConversationStream({ maxPacket: 64 });
    expect(stream.push('c2s', frameWithLength(frames[0]!.frame))[0]!.kind).toBe('connect');
    const [bad, ...rest] = stream.push('s2c', new Uint8Array([0, 0, 1, 0, 1, 2, 3]));
    expect(rest).toEqual([]);
    expect(bad).toMatchObject({ dir: 's2c', kind: 'error', index: 1 });
    expect(bad!.error).toMatch(/frame length 256 out of range 0\.\.64/);
    expect(stream.push('s2c', frameWithLength(frames[1]!.frame))).toEqual([]);
    // The other direction still decodes.
    const sync = stream.push('c2s', writeRequestFrame(new JuteWriter(), 1, OpCode.sync, { path: '/s' }));
    expect(sync[0]).toMatchObject({ kind: 'request', op: 'sync', index: 2 });
  });
});
