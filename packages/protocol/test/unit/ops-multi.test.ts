/**
 * The opcode table, the request-frame encoder and the multi codec, checked against the Java client's own
 * frames: decode every frame of the session with the table, re-encode it, get the same bytes back.
 */
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ProtocolError } from '../../src/errors/errors.js';
import { JuteReader } from '../../src/codec/jute/reader.js';
import { JuteWriter } from '../../src/codec/jute/writer.js';
import { readConnectRequest, readConnectResponse, writeConnectRequest, writeConnectResponse } from '../../src/codec/records/connect.js';
import { OpCode, type OpCodeName } from '../../src/codec/records/constants.js';
import { fillReplyHeader, readReplyHeader, readRequestHeader, replyHeaderSlot, writeReplyHeader } from '../../src/codec/records/headers.js';
import { frameWithLength } from '../../src/codec/frame.js';
import {
  firstMultiError,
  readMultiRequest,
  readMultiResponse,
  writeMultiRequest,
  writeMultiResponse,
  type MultiOp,
  type MultiResult,
} from '../../src/codec/multi.js';
import { requestCodecFor, responseReaderFor, responseWriterFor, writeRequestFrame, type RequestOpCode } from '../../src/codec/ops.js';
import { hex, sessionFrames } from '../support/recorded-session.js';

const frames = sessionFrames();
const stat = {
  czxid: 1n, mzxid: 2n, ctime: 3n, mtime: 4n, version: 5, cversion: 6, aversion: 7, ephemeralOwner: -1n,
  dataLength: 9, numChildren: 10, pzxid: 11n,
};
const acl = [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];

describe('opcode table and request frames', () => {
  it('re-encodes every frame of the Java session byte for byte', () => {
    const w = new JuteWriter(64, { stringEncoding: 'java' });
    const ops = new Map<number, number>();
    for (const [i, { dir, frame }] of frames.entries()) {
      const r = new JuteReader(frame);
      w.reset();
      let out: Uint8Array;
      if (i === 0) {
        const { readOnly, ...v } = readConnectRequest(r);
        w.beginFrame();
        writeConnectRequest(w, v, readOnly);
        out = w.endFrame();
      } else if (i === 1) {
        const { readOnly, ...v } = readConnectResponse(r);
        w.beginFrame();
        writeConnectResponse(w, v, readOnly);
        out = w.endFrame();
      } else if (dir === 'c2s') {
        const h = readRequestHeader(r);
        ops.set(h.xid, h.type);
        const codec = requestCodecFor(h.type);
        expect(codec, `opcode ${h.type}`).toBeDefined();
        out = writeRequestFrame(w, h.xid, h.type as RequestOpCode, (codec === null ? null : codec!.read(r)) as never);
      } else {
        const h = readReplyHeader(r);
        const op = h.xid === -1 ? OpCode.notification : ops.get(h.xid) ?? OpCode.auth;
        w.beginFrame();
        writeReplyHeader(w, h);
        const read = responseReaderFor(op);
        const write = responseWriterFor(op);
        if (h.err === 0 && read !== null && read !== undefined) write!(w, read(r) as never);
        out = w.endFrame();
      }
      r.expectEnd(`frame ${i}`);
      expect(hex(out), `frame ${i} (${dir})`).toBe(hex(frameWithLength(frame)));
    }
  });

  it('has request and response codecs for every client opcode, and nothing for the rest', () => {
    const absent: OpCodeName[] = ['createSession', 'deleteContainer', 'error'];
    for (const [name, code] of Object.entries(OpCode) as [OpCodeName, number][]) {
      if (absent.includes(name)) {
        expect(requestCodecFor(code), name).toBeUndefined();
        expect(responseReaderFor(code), name).toBeUndefined();
      } else {
        expect(requestCodecFor(code), name).not.toBeUndefined();
        expect(responseReaderFor(code), name).not.toBeUndefined();
      }
    }
    expect(requestCodecFor(42)).toBeUndefined();
    expect(responseReaderFor(-3)).toBeUndefined();
    // Header-only requests and body-less replies.
    for (const op of [OpCode.ping, OpCode.closeSession, OpCode.whoAmI]) expect(requestCodecFor(op)).toBeNull();
    for (const op of [OpCode.delete, OpCode.check, OpCode.setWatches, OpCode.setWatches2, OpCode.checkWatches,
      OpCode.removeWatches, OpCode.auth, OpCode.ping, OpCode.closeSession]) {
      expect(responseReaderFor(op)).toBeNull();
    }
  });

  it('fillReplyHeader reads what readReplyHeader reads, into one slot, keeping a repeated zxid without a new bigint', () => {
    const slot = replyHeaderSlot();
    let replies = 0;
    for (const { dir, frame } of frames) {
      if (dir !== 's2c' || frame.byteLength < 16) continue;
      const expected = readReplyHeader(new JuteReader(frame));
      const got = fillReplyHeader(new JuteReader(frame), slot);
      expect(got).toBe(slot);
      expect({ xid: got.xid, zxid: got.zxid, err: got.err }).toEqual(expected);
      replies++;
    }
    expect(replies).toBeGreaterThan(10);
    const header = (zxid: bigint): Uint8Array => {
      const w = new JuteWriter(16);
      writeReplyHeader(w, { xid: 7, zxid, err: -101 });
      return w.toBytes();
    };
    for (const zxid of [0n, 1n, 0xffffffffn, 0x1_0000_0000n, 0x7fffffff_ffffffffn, -1n, -0x8000000000000000n, -0x1_0000_0001n]) {
      expect(fillReplyHeader(new JuteReader(header(zxid)), slot)).toMatchObject({ xid: 7, zxid, err: -101 });
    }
    // Same bytes again: no new bigint is built (shown by planting a different value in the memo).
    fillReplyHeader(new JuteReader(header(0x1234_5678_9abcn)), slot);
    slot.zxidMemo.value = 42n;
    expect(fillReplyHeader(new JuteReader(header(0x1234_5678_9abcn)), slot).zxid).toBe(42n);
    expect(fillReplyHeader(new JuteReader(header(0x1234_5678_9abdn)), slot).zxid).toBe(0x1234_5678_9abdn);
  });

  it('borrows: buffers in decoded replies are views into the frame, not copies', () => {
    const getData = frames.find((f) => f.dir === 's2c' && hex(f.frame).includes('68656c6c6f') && f.frame.byteLength > 80)!;
    const r = new JuteReader(getData.frame);
    readReplyHeader(r);
    const v = responseReaderFor(OpCode.getData)!(r);
    expect(Buffer.from(v.data!).toString()).toBe('hello');
    expect(v.data!.buffer).toBe(getData.frame.buffer);
    expect(v.data!.byteOffset).toBe(getData.frame.byteOffset + 20);
  });

  it('decodes createContainer and createTTL replies as Create2Response', () => {
    const w = new JuteWriter();
    for (const op of [OpCode.createContainer, OpCode.createTTL, OpCode.create2]) {
      w.reset();
      responseWriterFor(OpCode.create2)!(w, { path: '/c', stat });
      const r = new JuteReader(w.toBytes());
      expect(responseReaderFor(op)!(r)).toEqual({ path: '/c', stat });
      r.expectEnd('create2');
    }
  });

  it('builds header-only frames (ping, closeSession, whoAmI) and refuses frames past maxPacket', () => {
    const w = new JuteWriter();
    expect(hex(writeRequestFrame(w, -2, OpCode.ping, null))).toBe('00000008fffffffe0000000b');
    w.reset();
    const before = w.length;
    const data = new Uint8Array(200);
    expect(() => writeRequestFrame(w, 1, OpCode.setData, { path: '/big', data, version: -1 }, { maxPacket: 100 }))
      .toThrow(InvalidArgumentError);
    expect(w.length).toBe(before);
    expect(writeRequestFrame(w, 1, OpCode.setData, { path: '/big', data, version: -1 }, { maxPacket: 224 }).byteLength).toBe(228);
  });

  it('appends frames to what the writer already holds (batched writes)', () => {
    const w = new JuteWriter();
    writeRequestFrame(w, 1, OpCode.sync, { path: '/a' });
    const second = writeRequestFrame(w, 2, OpCode.getAllChildrenNumber, { path: '/b' });
    expect(hex(second)).toBe('0000000e0000000200000068000000022f62');
    expect(w.length).toBe(18 + 18);
  });
});

describe('multi codec', () => {
  const ops: MultiOp[] = [
    { op: 'create', path: '/a', data: new Uint8Array([1]), acl, flags: 0 },
    { op: 'create2', path: '/b', data: null, acl, flags: 3 },
    { op: 'createContainer', path: '/c', data: new Uint8Array(0), acl, flags: 4 },
    { op: 'createTTL', path: '/d', data: null, acl, flags: 5, ttl: 60_000n },
    { op: 'delete', path: '/e', version: -1 },
    { op: 'setData', path: '/f', data: new Uint8Array([2, 3]), version: 4 },
    { op: 'check', path: '/g', version: 1 },
    { op: 'getData', path: '/h', watch: false },
    { op: 'getChildren', path: '/i', watch: false },
  ];
  const results: MultiResult[] = [
    { op: 'create', path: '/a' },
    { op: 'create2', path: '/b0000000001', stat },
    { op: 'createContainer', path: '/c', stat },
    { op: 'createTTL', path: '/d', stat },
    { op: 'delete' },
    { op: 'setData', stat },
    { op: 'check' },
    { op: 'getData', data: new Uint8Array([9]), stat },
    { op: 'getChildren', children: ['x', 'y'] },
    { op: 'error', err: -101 },
  ];

  it('round-trips every sub-op and every result kind', () => {
    const w = new JuteWriter();
    writeMultiRequest(w, ops);
    let r = new JuteReader(w.toBytes());
    expect(readMultiRequest(r)).toEqual(ops);
    r.expectEnd('multi request');
    writeMultiResponse(w.reset(), results);
    r = new JuteReader(w.toBytes());
    expect(readMultiResponse(r)).toEqual(results);
    r.expectEnd('multi response');
  });

  it('frames sub-ops as MultiHeader{type,false,-1} and ends with {-1,true,-1}', () => {
    const w = new JuteWriter();
    writeMultiRequest(w, [{ op: 'check', path: '/', version: 2 }]);
    expect(hex(w.toBytes())).toBe(`0000000d00ffffffff000000012f00000002ffffffff01ffffffff`);
    writeMultiRequest(w.reset(), []);
    expect(hex(w.toBytes())).toBe('ffffffff01ffffffff');
  });

  it('writes a failed result as type -1 with the code in the header and in ErrorResponse', () => {
    const w = new JuteWriter();
    writeMultiResponse(w, [{ op: 'error', err: -103 }]);
    expect(hex(w.toBytes())).toBe('ffffffff00ffffff99ffffff99ffffffff01ffffffff');
  });

  it('finds the failing op of a multi (earlier ops 0, later -2)', () => {
    expect(firstMultiError([{ op: 'error', err: 0 }, { op: 'error', err: -103 }, { op: 'error', err: -2 }]))
      .toEqual({ index: 1, err: -103 });
    expect(firstMultiError(results.slice(0, 3))).toBeUndefined();
  });

  it('refuses unknown sub-op types and truncated bodies with ProtocolError', () => {
    const bad = new JuteWriter().writeInt(99).writeBool(false).writeInt(-1).toBytes();
    expect(() => readMultiRequest(new JuteReader(bad))).toThrow(/invalid multi sub-request type 99/);
    expect(() => readMultiResponse(new JuteReader(bad))).toThrow(/invalid multi result type 99/);
    const w = new JuteWriter();
    writeMultiResponse(w, results);
    const cut = w.toBytes().subarray(0, 40);
    expect(() => readMultiResponse(new JuteReader(cut))).toThrow(ProtocolError);
  });
});
