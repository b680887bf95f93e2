/** Builds libpcap captures byte by byte, for tests of the reader that do not depend on tcpdump. */

export interface SegmentSpec {
  src: string;
  dst: string;
  srcPort: number;
  dstPort: number;
  seq: number;
  flags?: { syn?: boolean; ack?: boolean; fin?: boolean; rst?: boolean };
  payload?: Uint8Array;
}

function u16(value: number): number[] {
  return [(value >> 8) & 0xff, value & 0xff];
}

function u32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function tcp(spec: SegmentSpec): number[] {
  const f = spec.flags ?? { ack: true };
  const flags = (f.fin === true ? 1 : 0) | (f.syn === true ? 2 : 0) | (f.rst === true ? 4 : 0) | (f.ack === true ? 0x10 : 0);
  // A 24-byte header (one option word) exercises the data offset field.
  return [
    ...u16(spec.srcPort), ...u16(spec.dstPort), ...u32(spec.seq), ...u32(0),
    0x60, flags, ...u16(65535), 0, 0, 0, 0,
    2, 4, 0x05, 0xb4,
    ...(spec.payload ?? []),
  ];
}

function ipv4Address(text: string): number[] {
  return text.split('.').map(Number);
}

function ipv6Address(text: string): number[] {
  const [head = '', tail] = text.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.flatMap(u16);
}

export function ipPacket(spec: SegmentSpec): Uint8Array {
  const body = tcp(spec);
  if (spec.src.includes(':')) {
    // IPv6 with one hop-by-hop extension header in front of TCP.
    const hopByHop = [6, 0, 1, 4, 0, 0, 0, 0];
    return new Uint8Array([0x60, 0, 0, 0, ...u16(body.length + 8), 0, 64, ...ipv6Address(spec.src), ...ipv6Address(spec.dst), ...hopByHop, ...body]);
  }
  const total = 20 + body.length;
  return new Uint8Array([0x45, 0, ...u16(total), 0, 0, 0x40, 0, 64, 6, 0, 0, ...ipv4Address(spec.src), ...ipv4Address(spec.dst), ...body]);
}

export function ethernet(ip: Uint8Array, vlan = false): Uint8Array {
  const type = (ip[0] as number) >> 4 === 6 ? 0x86dd : 0x0800;
  const tag = vlan ? [0x81, 0x00, 0x00, 0x05] : [];
  // Padding after the IP packet, as Ethernet adds to short frames: the reader must ignore it.
  return new Uint8Array([...new Array<number>(12).fill(0xaa), ...tag, ...u16(type), ...ip, 0, 0, 0, 0]);
}

export function sll(ip: Uint8Array): Uint8Array {
  const type = (ip[0] as number) >> 4 === 6 ? 0x86dd : 0x0800;
  return new Uint8Array([0, 0, 0, 772 >> 8, 772 & 0xff, 0, 6, 0, 0, 0, 0, 0, 0, 0, ...u16(type), ...ip]);
}

export function sll2(ip: Uint8Array): Uint8Array {
  const type = (ip[0] as number) >> 4 === 6 ? 0x86dd : 0x0800;
  return new Uint8Array([...u16(type), 0, 0, ...u32(1), ...u16(772), 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, ...ip]);
}

export function loopback(ip: Uint8Array, family: number, littleEndian: boolean): Uint8Array {
  const header = littleEndian ? u32(family).reverse() : u32(family);
  return new Uint8Array([...header, ...ip]);
}

export interface PcapOptions {
  littleEndian?: boolean;
  nanoseconds?: boolean;
  linkType: number;
}

export function pcap(options: PcapOptions, packets: { time: number; frame: Uint8Array }[]): Uint8Array {
  const le = options.littleEndian ?? true;
  const word = (value: number): number[] => (le ? u32(value).reverse() : u32(value));
  const half = (value: number): number[] => (le ? u16(value).reverse() : u16(value));
  const magic = options.nanoseconds === true ? 0xa1b23c4d : 0xa1b2c3d4;
  const bytes: number[] = [...word(magic), ...half(2), ...half(4), ...word(0), ...word(0), ...word(65535), ...word(options.linkType)];
  for (const { time, frame } of packets) {
    const seconds = Math.floor(time / 1000);
    const fraction = options.nanoseconds === true ? (time % 1000) * 1e6 : (time % 1000) * 1e3;
    bytes.push(...word(seconds), ...word(fraction), ...word(frame.length), ...word(frame.length), ...frame);
  }
  return new Uint8Array(bytes);
}

/** A ZooKeeper-style frame: 4-byte big-endian length, then the payload. */
export function lengthPrefixed(payload: number[]): Uint8Array {
  return new Uint8Array([...u32(payload.length), ...payload]);
}
