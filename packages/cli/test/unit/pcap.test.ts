import { describe, expect, it } from 'vitest';

import { CliError } from '../../src/exit-codes.js';
import { LinkType, readCapture, readPcap, StreamReassembler } from '../../src/pcap/index.js';
import type { Capture } from '../../src/pcap/index.js';
import { ethernet, ipPacket, loopback, pcap, sll, sll2 } from '../support/pcap-builder.js';
import type { SegmentSpec } from '../support/pcap-builder.js';

const request = new TextEncoder().encode('request-bytes');
const reply = new TextEncoder().encode('the-reply');

/** A whole connection: handshake, one request, one reply, FIN. */
function conversation(client: string, server: string): SegmentSpec[] {
  const c = { src: client, dst: server, srcPort: 40000, dstPort: 2181 };
  const s = { src: server, dst: client, srcPort: 2181, dstPort: 40000 };
  return [
    { ...c, seq: 1000, flags: { syn: true } },
    { ...s, seq: 5000, flags: { syn: true, ack: true } },
    { ...c, seq: 1001, payload: request },
    { ...s, seq: 5001, payload: reply },
    { ...c, seq: 1001 + request.length, flags: { fin: true, ack: true } },
  ];
}

function joined(capture: Capture, dir: 'c2s' | 's2c'): string {
  const connection = capture.connections[0];
  if (connection === undefined) throw new Error('no connection');
  return connection.chunks.filter((c) => c.dir === dir).map((c) => new TextDecoder().decode(c.data)).join('');
}

const frame = (link: (ip: Uint8Array) => Uint8Array) => (spec: SegmentSpec, i: number) => ({ time: 1_700_000_000_000 + i, frame: link(ipPacket(spec)) });

describe('pcap reader', () => {
  const cases: [string, number, (ip: Uint8Array) => Uint8Array, string, string][] = [
    ['Ethernet / IPv4', LinkType.ETHERNET, (ip) => ethernet(ip), '10.0.0.1', '10.0.0.2'],
    ['Ethernet with a VLAN tag / IPv6', LinkType.ETHERNET, (ip) => ethernet(ip, true), 'fd00::1', 'fd00::2'],
    ['Linux SLL / IPv4', LinkType.LINUX_SLL, sll, '127.0.0.1', '127.0.0.1'],
    ['Linux SLL / IPv6', LinkType.LINUX_SLL, sll, '::1', '::1'],
    ['Linux SLL2 / IPv4', LinkType.LINUX_SLL2, sll2, '127.0.0.1', '127.0.0.1'],
    ['raw IP / IPv6', LinkType.RAW, (ip) => ip, '2001:db8::7', '2001:db8:0:1::8'],
    ['null loopback LE / IPv4', LinkType.NULL, (ip) => loopback(ip, 2, true), '127.0.0.1', '127.0.0.1'],
    ['null loopback BE / IPv6', LinkType.NULL, (ip) => loopback(ip, 30, false), '::1', '::1'],
  ];
  for (const littleEndian of [true, false]) {
    for (const nanoseconds of [false, true]) {
      for (const [name, linkType, link, client, server] of cases) {
        it(`${name}, ${littleEndian ? 'little' : 'big'}-endian, ${nanoseconds ? 'ns' : 'µs'}`, () => {
          const bytes = pcap({ linkType, littleEndian, nanoseconds }, conversation(client, server).map(frame(link)));
          const capture = readCapture(bytes, 2181);
          expect(capture.error).toBeUndefined();
          expect(capture.connections).toHaveLength(1);
          const connection = capture.connections[0];
          expect(connection?.client).toMatch(/:40000$/);
          expect(connection?.server).toMatch(/:2181$/);
          expect(connection?.start).toBeCloseTo(1_700_000_000_000, 3);
          expect(joined(capture, 'c2s')).toBe('request-bytes');
          expect(joined(capture, 's2c')).toBe('the-reply');
          expect(connection?.problems).toEqual([]);
          expect(connection?.chunks.map((c) => c.dir)).toEqual(['c2s', 's2c']);
        });
      }
    }
  }

  it('formats IPv6 endpoints in brackets with RFC 5952 compression', () => {
    const bytes = pcap({ linkType: LinkType.RAW }, conversation('2001:db8::7', '2001:db8:0:1::8').map(frame((ip) => ip)));
    const connection = readCapture(bytes, 2181).connections[0];
    expect(connection?.client).toBe('[2001:db8::7]:40000');
    expect(connection?.server).toBe('[2001:db8:0:1::8]:2181');
  });

  it('reads the timestamps of both resolutions', () => {
    const spec = conversation('127.0.0.1', '127.0.0.1');
    for (const nanoseconds of [false, true]) {
      const file = readPcap(pcap({ linkType: LinkType.RAW, nanoseconds }, [{ time: 1_700_000_000_123, frame: ipPacket(spec[0] as SegmentSpec) }]));
      expect(file.nanoseconds).toBe(nanoseconds);
      expect(file.records[0]?.time).toBeCloseTo(1_700_000_000_123, 3);
    }
  });

  it('reassembles out-of-order segments and ignores retransmits and overlaps', () => {
    const c = { src: '127.0.0.1', dst: '127.0.0.1', srcPort: 40000, dstPort: 2181 };
    const text = new TextEncoder().encode('abcdefghijklmnopqrstuvwxyz');
    const piece = (from: number, to: number): SegmentSpec => ({ ...c, seq: 1001 + from, payload: text.subarray(from, to) });
    const segments: SegmentSpec[] = [
      { ...c, seq: 1000, flags: { syn: true } },
      piece(20, 26), // arrives first, waits
      piece(0, 8),
      piece(0, 8), // retransmit
      piece(12, 20), // waits behind the 8..12 gap
      piece(4, 14), // overlaps both sides and fills the gap
      piece(10, 26), // late retransmit of everything
    ];
    const capture = readCapture(pcap({ linkType: LinkType.RAW }, segments.map(frame((ip) => ip))), 2181);
    expect(joined(capture, 'c2s')).toBe('abcdefghijklmnopqrstuvwxyz');
    expect(capture.connections[0]?.problems).toEqual([]);
  });

  it('handles sequence numbers that wrap around 2^32', () => {
    const chunks: string[] = [];
    const stream = new StreamReassembler((data) => chunks.push(new TextDecoder().decode(data)));
    const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
    stream.syn(0xfffffffd);
    stream.segment(0x00000001, enc('world'), 2); // after the wrap, early
    stream.segment(0xfffffffe, enc('hello'), 1); // 0xfffffffe..0x00000002: overlaps the first two bytes of world
    expect(chunks.join('')).toBe('hello' + 'world'.slice(2));
  });

  it('reports bytes stuck behind a gap that never fills', () => {
    const c = { src: '127.0.0.1', dst: '127.0.0.1', srcPort: 40000, dstPort: 2181 };
    const segments: SegmentSpec[] = [
      { ...c, seq: 1000, flags: { syn: true } },
      { ...c, seq: 1001, payload: request },
      { ...c, seq: 1001 + request.length + 5, payload: request },
    ];
    const capture = readCapture(pcap({ linkType: LinkType.RAW }, segments.map(frame((ip) => ip))), 2181);
    expect(joined(capture, 'c2s')).toBe('request-bytes');
    expect(capture.connections[0]?.problems).toEqual([`c2s: ${request.length} bytes after a gap the capture never filled (lost segments)`]);
  });

  it('separates connections and ignores traffic on other ports', () => {
    const a = conversation('127.0.0.1', '127.0.0.1');
    const b = conversation('127.0.0.2', '127.0.0.1');
    const other: SegmentSpec = { src: '127.0.0.1', dst: '127.0.0.1', srcPort: 1, dstPort: 80, seq: 1, payload: request };
    const capture = readCapture(pcap({ linkType: LinkType.RAW }, [...a, other, ...b].map(frame((ip) => ip))), 2181);
    expect(capture.connections.map((c) => c.client)).toEqual(['127.0.0.1:40000', '127.0.0.2:40000']);
    // --port decides which side is the server: with another port nothing matches.
    expect(readCapture(pcap({ linkType: LinkType.RAW }, a.map(frame((ip) => ip))), 2182).connections).toEqual([]);
  });

  it('starts a new connection when a client port is reused', () => {
    const capture = readCapture(
      pcap({ linkType: LinkType.RAW }, [...conversation('127.0.0.1', '127.0.0.1'), ...conversation('127.0.0.1', '127.0.0.1')].map(frame((ip) => ip))),
      2181,
    );
    expect(capture.connections).toHaveLength(2);
    expect(capture.connections[1]?.chunks.map((c) => c.dir)).toEqual(['c2s', 's2c']);
  });

  it('keeps the records before a truncation and reports it', () => {
    const bytes = pcap({ linkType: LinkType.RAW }, conversation('127.0.0.1', '127.0.0.1').map(frame((ip) => ip)));
    const capture = readCapture(bytes.subarray(0, bytes.length - 30), 2181);
    expect(capture.error).toMatch(/^truncated capture: record 5 at byte \d+ needs \d+ bytes, only \d+ remain$/);
    expect(joined(capture, 'c2s')).toBe('request-bytes');
    expect(joined(capture, 's2c')).toBe('the-reply');
    const headerCut = readPcap(bytes.subarray(0, 24 + 10));
    expect(headerCut.error).toMatch(/has only 10 of its 16 header bytes/);
  });

  it('rejects what is not a classic pcap file with a clear message', () => {
    const garbage = new TextEncoder().encode('this is not a capture at all');
    expect(() => readPcap(garbage)).toThrow(/not a pcap capture: unknown magic 0x74686973/);
    expect(() => readPcap(new Uint8Array(5))).toThrow(CliError);
    expect(() => readPcap(new Uint8Array([0x0a, 0x0d, 0x0d, 0x0a, ...new Array<number>(40).fill(0)]))).toThrow(/pcapng/);
    const wrongLink = pcap({ linkType: 147 }, []);
    expect(() => readCapture(wrongLink, 2181)).toThrow(/unsupported pcap link type 147/);
  });
});
