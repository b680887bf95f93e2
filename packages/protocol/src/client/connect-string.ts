/**
 * Connect strings: `host[:port][,host[:port]…][/chroot]`, hosts being IPv4, `[IPv6]` or names (Java's
 * ConnectStringParser). The chroot is validated like any path; a bare '/' means no chroot.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { describeValue } from '../errors/option-keys.js';
import { validatePath } from './paths.js';

/** One server of a connect string. */
export interface HostAddress {
  host: string;
  port: number;
}

/** A connect string taken apart: its servers in order, and its chroot (`''` when none). */
export interface ParsedConnectString {
  hosts: HostAddress[];
  /** '' when there is none. */
  chroot: string;
}

const DEFAULT_PORT = 2181;

function parsePort(text: string, entry: string): number {
  if (!/^\d{1,5}$/.test(text)) throw new InvalidArgumentError('connectString', `bad port in ${JSON.stringify(entry)}`);
  const port = Number(text);
  if (port < 1 || port > 65535) throw new InvalidArgumentError('connectString', `port out of range in ${JSON.stringify(entry)}`);
  return port;
}

function parseHost(entry: string): HostAddress {
  if (entry.startsWith('[')) {
    const close = entry.indexOf(']');
    if (close < 0) throw new InvalidArgumentError('connectString', `unclosed IPv6 bracket in ${JSON.stringify(entry)}`);
    const host = entry.slice(1, close);
    const rest = entry.slice(close + 1);
    if (host === '') throw new InvalidArgumentError('connectString', `empty IPv6 address in ${JSON.stringify(entry)}`);
    if (rest === '') return { host, port: DEFAULT_PORT };
    if (!rest.startsWith(':')) throw new InvalidArgumentError('connectString', `junk after IPv6 address in ${JSON.stringify(entry)}`);
    return { host, port: parsePort(rest.slice(1), entry) };
  }
  const colon = entry.lastIndexOf(':');
  if (colon < 0) return { host: entry, port: DEFAULT_PORT };
  const host = entry.slice(0, colon);
  if (host === '' || host.includes(':')) {
    throw new InvalidArgumentError('connectString', `bad host ${JSON.stringify(entry)} (IPv6 needs brackets)`);
  }
  return { host, port: parsePort(entry.slice(colon + 1), entry) };
}

/** Parses `host[:port][,host[:port]…][/chroot]` (IPv6 in brackets; port 2181 by default). Throws InvalidArgumentError on a malformed string. */
export function parseConnectString(connectString: string): ParsedConnectString {
  if (typeof connectString !== 'string' || connectString.trim() === '') {
    throw new InvalidArgumentError('connectString', `connect string must be a non-empty string, got ${describeValue(connectString)}`);
  }
  let hostsPart = connectString.trim();
  let chroot = '';
  // The chroot starts at the first '/', which cannot occur in a host entry.
  const slash = hostsPart.indexOf('/');
  if (slash >= 0) {
    chroot = hostsPart.slice(slash);
    hostsPart = hostsPart.slice(0, slash);
    try {
      validatePath(chroot);
    } catch (err) {
      throw new InvalidArgumentError('connectString', `bad chroot in ${describeValue(connectString)}: ${(err as Error).message}`, { cause: err });
    }
    if (chroot === '/') chroot = '';
  }
  const hosts = hostsPart
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(parseHost);
  if (hosts.length === 0) throw new InvalidArgumentError('connectString', 'no host in connect string');
  return { hosts, chroot };
}
