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

/**
 * The mistakes the library's parser answers with messages about something else: a URL scheme (`zk://h:2181`
 * would read as host `zk`, bad port, chroot `//h:2181`) and an empty entry (`a,,b`, which it skips silently).
 * Checked before anything connects, by every command that uses --server.
 */
export function checkConnectString(connectString: string): void {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(connectString.trim())) {
    throw new UsageError(`--server '${connectString}': connect strings have no scheme: use host:port[,host:port][/chroot]`);
  }
  const slash = connectString.indexOf('/');
  const entries = (slash < 0 ? connectString : connectString.slice(0, slash)).split(',');
  const empty = entries.findIndex((entry) => entry.trim() === '');
  if (entries.length === 1 && empty === 0) throw new UsageError(`--server '${connectString}': no host before the chroot`);
  if (empty >= 0) throw new UsageError(`--server '${connectString}': host ${empty + 1} of ${entries.length} is empty (stray comma?)`);
}

/** `h1:p1,h2/chroot` → the hosts (the chroot does not matter to a raw socket). */
export function serverHosts(connectString: string): HostPort[] {
  checkConnectString(connectString);
  const slash = connectString.indexOf('/');
  const list = slash < 0 ? connectString : connectString.slice(0, slash);
  return list.split(',').map((entry) => parseHostPort(entry.trim(), 2181, '--server'));
}

/** A listening address: `PORT` (on 127.0.0.1) or `HOST:PORT`; port 0 picks a free one. `what` names the option. */
export function parseListenAddress(text: string, what: string): HostPort {
  if (/^\d+$/.test(text)) return parseHostPort(`127.0.0.1:${text}`, undefined, what, 0);
  return parseHostPort(text, undefined, what, 0);
}
