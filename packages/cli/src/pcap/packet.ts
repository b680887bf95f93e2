/**
 * From a captured link-layer frame to a TCP segment: the link header (Ethernet with VLAN tags, Linux cooked
 * SLL and SLL2, raw IP, BSD null/loopback), then IPv4 or IPv6 (extension headers skipped), then TCP.
 * Anything else (ARP, UDP, IP fragments) yields `undefined`: a capture filter is rarely exact.
 */

export const LinkType = {
  NULL: 0,
  ETHERNET: 1,
  RAW_BSD_12: 12,
  RAW_BSD_14: 14,
  RAW: 101,
  LINUX_SLL: 113,
  IPV4: 228,
  IPV6: 229,
  LINUX_SLL2: 276,
} as const;

export interface TcpSegment {
  readonly src: string;
  readonly dst: string;
  readonly srcPort: number;
  readonly dstPort: number;
  readonly seq: number;
  readonly syn: boolean;
  readonly fin: boolean;
  readonly rst: boolean;
  readonly ackFlag: boolean;
  readonly payload: Uint8Array;
  /** Bytes of this segment's payload are missing from the capture (snaplen cut it). */
  readonly partial: boolean;
}

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_IPV6 = 0x86dd;
const ETHERTYPE_VLAN = [0x8100, 0x88a8, 0x9100];

export function isSupportedLinkType(linkType: number): boolean {
  return (Object.values(LinkType) as number[]).includes(linkType);
}

export function decodeFrame(linkType: number, frame: Uint8Array): TcpSegment | undefined {
  const ip = networkLayer(linkType, frame);
  return ip === undefined ? undefined : decodeIp(ip);
}

/** The IP packet inside a link-layer frame, or undefined when it carries something else. */
function networkLayer(linkType: number, frame: Uint8Array): Uint8Array | undefined {
  const view = viewOf(frame);
  switch (linkType) {
    case LinkType.ETHERNET: {
      let offset = 12;
      if (frame.length < offset + 2) return undefined;
      let type = view.getUint16(offset);
      while (ETHERTYPE_VLAN.includes(type) && frame.length >= offset + 6) {
        offset += 4;
        type = view.getUint16(offset);
      }
      return ipByEthertype(type, frame.subarray(offset + 2));
    }
    case LinkType.LINUX_SLL:
      return frame.length < 16 ? undefined : ipByEthertype(view.getUint16(14), frame.subarray(16));
    case LinkType.LINUX_SLL2:
      return frame.length < 20 ? undefined : ipByEthertype(view.getUint16(0), frame.subarray(20));
    case LinkType.NULL: {
      // The address family is in the byte order of the machine that captured, so try both.
      if (frame.length < 4) return undefined;
      const family = view.getUint32(0, true) < 0x10000 ? view.getUint32(0, true) : view.getUint32(0, false);
      const payload = frame.subarray(4);
      if (family === 2) return payload;
      if (family === 10 || family === 24 || family === 28 || family === 30) return payload;
      return undefined;
    }
    case LinkType.RAW:
    case LinkType.RAW_BSD_12:
    case LinkType.RAW_BSD_14:
    case LinkType.IPV4:
    case LinkType.IPV6:
      return frame;
    default:
      return undefined;
  }
}

function ipByEthertype(type: number, payload: Uint8Array): Uint8Array | undefined {
  return type === ETHERTYPE_IPV4 || type === ETHERTYPE_IPV6 ? payload : undefined;
}

const PROTO_TCP = 6;
/** IPv6 extension headers that share the generic (next header, length in 8-byte units − 1) layout. */
const IPV6_EXTENSIONS = new Set([0, 43, 60, 135, 139, 140]);
const IPV6_FRAGMENT = 44;

function decodeIp(packet: Uint8Array): TcpSegment | undefined {
  if (packet.length < 1) return undefined;
  const version = (packet[0] as number) >> 4;
  const view = viewOf(packet);
  if (version === 4) {
    if (packet.length < 20) return undefined;
    const headerLength = ((packet[0] as number) & 0x0f) * 4;
    const totalLength = view.getUint16(2);
    const fragment = view.getUint16(6);
    // More-fragments set or a non-zero offset: a fragment, which TCP over loopback never produces.
    if ((fragment & 0x2000) !== 0 || (fragment & 0x1fff) !== 0) return undefined;
    if (packet[9] !== PROTO_TCP || headerLength < 20) return undefined;
    // Ethernet pads short frames: the IP total length, not the frame, says where the packet ends.
    const end = totalLength === 0 ? packet.length : Math.min(totalLength, packet.length);
    const partial = totalLength > packet.length;
    return decodeTcp(ipv4(packet, 12), ipv4(packet, 16), packet.subarray(headerLength, end), partial);
  }
  if (version === 6) {
    if (packet.length < 40) return undefined;
    const payloadLength = view.getUint16(4);
    let next = packet[6] as number;
    let offset = 40;
    while (IPV6_EXTENSIONS.has(next)) {
      if (packet.length < offset + 8) return undefined;
      const length = ((packet[offset + 1] as number) + 1) * 8;
      next = packet[offset] as number;
      offset += length;
    }
    if (next === IPV6_FRAGMENT || next !== PROTO_TCP) return undefined;
    const end = Math.min(40 + payloadLength, packet.length);
    const partial = 40 + payloadLength > packet.length;
    if (offset > end) return undefined;
    return decodeTcp(ipv6(packet, 8), ipv6(packet, 24), packet.subarray(offset, end), partial);
  }
  return undefined;
}

function decodeTcp(src: string, dst: string, tcp: Uint8Array, partial: boolean): TcpSegment | undefined {
  if (tcp.length < 20) return undefined;
  const view = viewOf(tcp);
  const dataOffset = ((tcp[12] as number) >> 4) * 4;
  if (dataOffset < 20 || dataOffset > tcp.length) return undefined;
  const flags = tcp[13] as number;
  return {
    src,
    dst,
    srcPort: view.getUint16(0),
    dstPort: view.getUint16(2),
    seq: view.getUint32(4),
    fin: (flags & 0x01) !== 0,
    syn: (flags & 0x02) !== 0,
    rst: (flags & 0x04) !== 0,
    ackFlag: (flags & 0x10) !== 0,
    payload: tcp.subarray(dataOffset),
    partial,
  };
}

function ipv4(packet: Uint8Array, offset: number): string {
  return Array.from(packet.subarray(offset, offset + 4)).join('.');
}

/** RFC 5952 text: lower-case hex, the longest run of two or more zero groups written as `::`. */
export function ipv6(packet: Uint8Array, offset: number): string {
  const view = viewOf(packet);
  const groups: number[] = [];
  for (let i = 0; i < 8; i++) groups.push(view.getUint16(offset + i * 2));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
