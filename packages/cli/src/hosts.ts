/** Host list of a connect string, for the commands that open raw sockets (four-letter words). */
import { UsageError } from './exit-codes.js';

export interface HostPort {
  host: string;
  port: number;
}

/** `minPort` 0 allows port 0 ("pick a free port") for addresses to listen on. */
export function parseHostPort(entry: string, defaultPort: number | undefined, what: string, minPort = 1): HostPort {
  let host = entry;
  let portText: string | undefined;
  if (entry.startsWith('[')) {
    const close = entry.indexOf(']');
    if (close < 0) throw new UsageError(`${what}: unclosed '[' in '${entry}'`);
    host = entry.slice(1, close);
    const rest = entry.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) throw new UsageError(`${what}: junk after ']' in '${entry}'`);
    portText = rest === '' ? undefined : rest.slice(1);
  } else {
    const colon = entry.lastIndexOf(':');
    if (colon >= 0) {
      host = entry.slice(0, colon);
      portText = entry.slice(colon + 1);
    }
  }
  if (host === '') throw new UsageError(`${what}: missing host in '${entry}'`);
  if (portText === undefined) {
    if (defaultPort === undefined) throw new UsageError(`${what}: missing port in '${entry}' (HOST:PORT)`);
    return { host, port: defaultPort };
  }
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < minPort || port > 65535) throw new UsageError(`${what}: bad port in '${entry}'`);
  return { host, port };
}

/** `h1:p1,h2/chroot` → the hosts (the chroot does not matter to a raw socket). */
export function serverHosts(connectString: string): HostPort[] {
  const slash = connectString.indexOf('/');
  const list = slash < 0 ? connectString : connectString.slice(0, slash);
  const hosts = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (hosts.length === 0) throw new UsageError(`--server: no host in '${connectString}'`);
  return hosts.map((entry) => parseHostPort(entry, 2181, '--server'));
}
