/**
 * The codec micro-benchmark cases: the same inputs encoded and decoded by zkts and by node-zookeeper-client's
 * Jute classes (lib/jute: records generated at runtime from specification.json, longs as 8-byte Buffers). Each
 * case does what a client (or, for replies, a server) does per frame: build the record, write the frame; or
 * read the header and the body from a frame.
 */
import { createRequire } from 'node:module';

import { JuteReader, JuteWriter } from '../../packages/protocol/src/codec/jute/index.js';
import {
  OpCode,
  readGetChildren2Response,
  readGetDataRequest,
  readGetDataResponse,
  readReplyHeader,
  readRequestHeader,
  writeGetChildren2Response,
  writeGetDataResponse,
  writeReplyHeader,
  type Stat,
} from '../../packages/protocol/src/codec/records/index.js';
import { writeRequestFrame } from '../../packages/protocol/src/codec/ops.js';

interface NzcRecord {
  [field: string]: unknown;
  byteLength(): number;
  serialize(buffer: Buffer, offset: number): number;
  deserialize(buffer: Buffer, offset: number): number;
}
type NzcClass = new (...args: unknown[]) => NzcRecord;
interface NzcJute {
  protocol: Record<string, NzcClass>;
  data: Record<string, NzcClass>;
  Request: new (header: NzcRecord | null, payload: NzcRecord | null) => { toBuffer(): Buffer };
}

const require = createRequire(import.meta.url);
const jute = require('node-zookeeper-client/lib/jute') as NzcJute;
const P = jute.protocol;

export interface Case {
  name: string;
  zkts: () => unknown;
  nzc: () => unknown;
  /** Both sides' output for the same input, compared before timing so both do the same work. */
  check: () => [zkts: Uint8Array | string, nzc: Uint8Array | string];
}

const PATH = '/services/orders/leader-0000000042';
const DATA = new Uint8Array(Buffer.from('{"host":"10.1.2.3","port":2181,"weight":100,"tags":["a","b","c"]}'));
const stat: Stat = {
  czxid: 0x100000001n, mzxid: 0x100000002n, ctime: 1_795_325_588_666n, mtime: 1_795_325_588_777n, version: 3,
  cversion: 10_000, aversion: 0, ephemeralOwner: 0n, dataLength: DATA.byteLength, numChildren: 10_000,
  pzxid: 0x100000003n,
};
const CHILDREN = Array.from({ length: 10_000 }, (_, i) => `node-${String(i).padStart(10, '0')}`);

const long = (v: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(v);
  return b;
};
const nzcStat = (): NzcRecord =>
  new jute.data.Stat!(long(stat.czxid), long(stat.mzxid), long(stat.ctime), long(stat.mtime), stat.version,
    stat.cversion, stat.aversion, long(stat.ephemeralOwner), stat.dataLength, stat.numChildren, long(stat.pzxid));

const w = new JuteWriter(256 * 1024);

/** A reply payload (no length prefix, like nzc's), copied out of the reused writer. */
function replyFrame(body: (w: JuteWriter) => void): Uint8Array {
  w.reset();
  writeReplyHeader(w, { xid: 7, zxid: 0x100000005n, err: 0 });
  body(w);
  return w.toBytes();
}

function nzcReplyFrame(payload: NzcRecord): Buffer {
  const header = new P.ReplyHeader!(7, long(0x100000005n), 0);
  const out = Buffer.alloc(header.byteLength() + payload.byteLength());
  const n = header.serialize(out, 0);
  payload.serialize(out, n);
  return out;
}

const getDataRequestFrame = (() => {
  w.reset();
  return writeRequestFrame(w, 7, OpCode.getData, { path: PATH, watch: true }).slice(4);
})();

/** What the client does per request: encode into the reused writer, copy the frame out for the socket. */
function getDataRequest(): Uint8Array {
  w.reset();
  writeRequestFrame(w, 7, OpCode.getData, { path: PATH, watch: true });
  return w.toBytes();
}
const getDataResponseFrame = replyFrame((x) => writeGetDataResponse(x, { data: DATA, stat }));
const children2Frame = replyFrame((x) => writeGetChildren2Response(x, { children: CHILDREN, stat }));
const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

export const cases: Case[] = [
  {
    name: 'GetDataRequest encode',
    zkts: getDataRequest,
    nzc: () => {
      const header = new P.RequestHeader!(7, OpCode.getData);
      return new jute.Request(header, new P.GetDataRequest!(PATH, true)).toBuffer();
    },
    check: () => [getDataRequest(), new jute.Request(new P.RequestHeader!(7, OpCode.getData), new P.GetDataRequest!(PATH, true)).toBuffer()],
  },
  {
    name: 'GetDataRequest decode',
    zkts: () => {
      const r = new JuteReader(getDataRequestFrame);
      return [readRequestHeader(r), readGetDataRequest(r)];
    },
    nzc: () => {
      const b = asBuffer(getDataRequestFrame);
      const header = new P.RequestHeader!();
      const body = new P.GetDataRequest!();
      body.deserialize(b, header.deserialize(b, 0));
      return [header, body];
    },
    check: () => {
      const r = new JuteReader(getDataRequestFrame);
      const h = readRequestHeader(r);
      const v = readGetDataRequest(r);
      const b = asBuffer(getDataRequestFrame);
      const header = new P.RequestHeader!();
      const body = new P.GetDataRequest!();
      body.deserialize(b, header.deserialize(b, 0));
      return [`${h.xid} ${h.type} ${v.path} ${v.watch}`, `${header.xid} ${header.type} ${body.path} ${body.watch}`];
    },
  },
  {
    name: 'GetDataResponse encode',
    zkts: () => replyFrame((x) => writeGetDataResponse(x, { data: DATA, stat })),
    nzc: () => nzcReplyFrame(new P.GetDataResponse!(Buffer.from(DATA), nzcStat())),
    check: () => [replyFrame((x) => writeGetDataResponse(x, { data: DATA, stat })), nzcReplyFrame(new P.GetDataResponse!(Buffer.from(DATA), nzcStat()))],
  },
  {
    name: 'GetDataResponse decode',
    zkts: () => {
      const r = new JuteReader(getDataResponseFrame);
      return [readReplyHeader(r), readGetDataResponse(r)];
    },
    nzc: () => {
      const b = asBuffer(getDataResponseFrame);
      const header = new P.ReplyHeader!();
      const body = new P.GetDataResponse!();
      body.deserialize(b, header.deserialize(b, 0));
      return [header, body];
    },
    check: () => {
      const r = new JuteReader(getDataResponseFrame);
      readReplyHeader(r);
      const v = readGetDataResponse(r);
      const b = asBuffer(getDataResponseFrame);
      const body = new P.GetDataResponse!();
      body.deserialize(b, new P.ReplyHeader!().deserialize(b, 0));
      const nStat = body.stat as NzcRecord;
      return [`${Buffer.from(v.data!).toString()} ${v.stat.mtime}`, `${String(body.data)} ${(nStat.mtime as Buffer).readBigInt64BE()}`];
    },
  },
  {
    name: 'GetChildren2Response (10k) encode',
    zkts: () => replyFrame((x) => writeGetChildren2Response(x, { children: CHILDREN, stat })),
    nzc: () => nzcReplyFrame(new P.GetChildren2Response!(CHILDREN, nzcStat())),
    check: () => [
      replyFrame((x) => writeGetChildren2Response(x, { children: CHILDREN, stat })),
      nzcReplyFrame(new P.GetChildren2Response!(CHILDREN, nzcStat())),
    ],
  },
  {
    name: 'GetChildren2Response (10k) decode',
    zkts: () => {
      const r = new JuteReader(children2Frame);
      return [readReplyHeader(r), readGetChildren2Response(r)];
    },
    nzc: () => {
      const b = asBuffer(children2Frame);
      const header = new P.ReplyHeader!();
      const body = new P.GetChildren2Response!();
      body.deserialize(b, header.deserialize(b, 0));
      return [header, body];
    },
    check: () => {
      const r = new JuteReader(children2Frame);
      readReplyHeader(r);
      const v = readGetChildren2Response(r);
      const b = asBuffer(children2Frame);
      const body = new P.GetChildren2Response!();
      body.deserialize(b, new P.ReplyHeader!().deserialize(b, 0));
      return [(v.children ?? []).join(','), (body.children as string[]).join(',')];
    },
  },
];
