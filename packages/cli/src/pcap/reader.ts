/**
 * Classic libpcap files (not pcapng): a 24-byte global header, then records of a 16-byte header and the
 * captured bytes. The magic number tells both the byte order of every header field and whether the second
 * timestamp field counts microseconds or nanoseconds.
 *
 *   global: u32 magic, u16 major, u16 minor, i32 thiszone, u32 sigfigs, u32 snaplen, u32 linktype
 *   record: u32 ts_sec, u32 ts_frac, u32 incl_len, u32 orig_len, incl_len bytes
 */
import { CliError, ExitCode } from '../exit-codes.js';

export interface PcapRecord {
  /** Milliseconds since the epoch, with the sub-millisecond part as a fraction. */
  readonly time: number;
  readonly data: Uint8Array;
  /** The packet on the wire was longer than what was captured (snaplen). */
  readonly truncated: boolean;
}

export interface PcapFile {
  readonly littleEndian: boolean;
  readonly nanoseconds: boolean;
  /** The link type, with the FCS bits of the upper half-word masked away. */
  readonly linkType: number;
  readonly records: PcapRecord[];
  /** Set when the file ends inside a record: the records before it are still usable. */
  readonly error: string | undefined;
}

const MAGIC_MICRO = 0xa1b2c3d4;
const MAGIC_NANO = 0xa1b23c4d;
const PCAPNG_MAGIC = 0x0a0d0d0a;
const GLOBAL_HEADER = 24;
const RECORD_HEADER = 16;
/** No real link layer frame is bigger; a larger incl_len means a corrupt file, not a big packet. */
const MAX_RECORD = 256 * 1024;

export function isPcap(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const be = view.getUint32(0, false);
  const le = view.getUint32(0, true);
  return be === MAGIC_MICRO || be === MAGIC_NANO || le === MAGIC_MICRO || le === MAGIC_NANO || be === PCAPNG_MAGIC;
}

export function readPcap(bytes: Uint8Array): PcapFile {
  if (bytes.length < GLOBAL_HEADER) {
    throw new CliError(ExitCode.DATA_ERROR, `not a pcap capture: ${bytes.length} bytes is shorter than the 24-byte file header`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const be = view.getUint32(0, false);
  if (be === PCAPNG_MAGIC) {
    throw new CliError(ExitCode.DATA_ERROR, 'pcapng captures are not supported; convert with `tcpdump -r IN -w OUT.pcap` (classic pcap)');
  }
  const le = view.getUint32(0, true);
  let littleEndian: boolean;
  let nanoseconds: boolean;
  if (be === MAGIC_MICRO || be === MAGIC_NANO) {
    littleEndian = false;
    nanoseconds = be === MAGIC_NANO;
  } else if (le === MAGIC_MICRO || le === MAGIC_NANO) {
    littleEndian = true;
    nanoseconds = le === MAGIC_NANO;
  } else {
    throw new CliError(ExitCode.DATA_ERROR, `not a pcap capture: unknown magic 0x${be.toString(16).padStart(8, '0')}`);
  }
  const linkType = view.getUint32(20, littleEndian) & 0x03ffffff;
  const divisor = nanoseconds ? 1e6 : 1e3;
  const records: PcapRecord[] = [];
  let error: string | undefined;
  let offset = GLOBAL_HEADER;
  while (offset < bytes.length) {
    if (bytes.length - offset < RECORD_HEADER) {
      error = `truncated capture: record ${records.length + 1} at byte ${offset} has only ${bytes.length - offset} of its 16 header bytes`;
      break;
    }
    const seconds = view.getUint32(offset, littleEndian);
    const fraction = view.getUint32(offset + 4, littleEndian);
    const included = view.getUint32(offset + 8, littleEndian);
    const original = view.getUint32(offset + 12, littleEndian);
    if (included > MAX_RECORD) {
      error = `corrupt capture: record ${records.length + 1} at byte ${offset} claims ${included} captured bytes`;
      break;
    }
    const start = offset + RECORD_HEADER;
    if (start + included > bytes.length) {
      error = `truncated capture: record ${records.length + 1} at byte ${offset} needs ${included} bytes, only ${bytes.length - start} remain`;
      break;
    }
    records.push({
      time: seconds * 1000 + fraction / divisor,
      data: bytes.subarray(start, start + included),
      truncated: original > included,
    });
    offset = start + included;
  }
  return { littleEndian, nanoseconds, linkType, records, error };
}
