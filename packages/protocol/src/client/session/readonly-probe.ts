/**
 * Leaving read-only mode: while connected to a read-only server, ask the other hosts with the `isro`
 * four-letter word (a server answers "rw" when it serves writes, "ro" when read-only) until one serves writes,
 * backing off 100 ms → 60 s between rounds (Java's pingRwServer). Any failure is "no".
 */
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { abortWith, sleep } from '../cancel.js';
import type { Clock } from '../clock.js';
import type { HostAddress } from '../connect-string.js';
import type { Connection } from './connection.js';
import { ConnectionLossError } from '../../errors/errors.js';
import { debug } from '../diagnostics.js';
import type { HostProvider } from './host-provider.js';
import { describe } from './transport.js';

const FIRST_DELAY = 100;
const MAX_DELAY = 60_000;

export interface SeekOptions {
  hosts: readonly HostAddress[];
  /** The read-only server we are on (not asked). */
  current: HostAddress;
  timeout: () => number;
  tls: ConnectionOptions | undefined;
  clock: Clock;
  /** Stops the search (the connection closed, or a read-write server was found). */
  signal: AbortSignal;
  /** Called once, with the first read-write host found. */
  found(host: HostAddress): void;
}

export async function seekReadWriteServer(options: SeekOptions): Promise<void> {
  const { signal } = options;
  let delay = FIRST_DELAY;
  while (!signal.aborted) {
    try {
      await sleep(delay, { signal }, options.clock);
    } catch {
      return;
    }
    delay = Math.min(delay * 2, MAX_DELAY);
    for (const host of options.hosts) {
      if (signal.aborted) return;
      if (host.host === options.current.host && host.port === options.current.port) continue;
      const rw = await probeReadWrite(host, { timeout: options.timeout(), tls: options.tls, signal });
      if (rw && !signal.aborted) {
        options.found(host);
        return;
      }
    }
  }
}

export function probeReadWrite(
  host: HostAddress,
  options: { timeout: number; tls: ConnectionOptions | undefined; signal: AbortSignal },
): Promise<boolean> {
  return new Promise((resolve) => {
    let answer = '';
    let socket: Socket;
    try {
      socket =
        options.tls === undefined
          ? netConnect({ host: host.host, port: host.port })
          : tlsConnect({ ...options.tls, host: host.host, port: host.port });
    } catch {
      resolve(false);
      return;
    }
    const finish = (): void => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', finish);
      socket.destroy();
      resolve(answer.trim() === 'rw');
    };
    const timer = setTimeout(finish, options.timeout);
    options.signal.addEventListener('abort', finish, { once: true });
    socket.once(options.tls === undefined ? 'connect' : 'secureConnect', () => socket.write('isro'));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.length > 16) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
  });
}

/**
 * Starts the search from a read-only connection; when a read-write host answers (and `stillCurrent()`), it is
 * made the next host and the read-only connection is closed, so the session loop moves there.
 */
export function startProbe(
  conn: Connection,
  hosts: HostProvider,
  probe: AbortSignal,
  sessionStopped: AbortSignal,
  options: { timeout: () => number; tls: ConnectionOptions | undefined; clock: Clock },
  stillCurrent: () => boolean,
): void {
  const current = conn.transport.address;
  const either = new AbortController();
  const unlinkProbe = abortWith(probe, either);
  const unlinkSession = abortWith(sessionStopped, either);
  void seekReadWriteServer({
    hosts: hosts.hosts,
    current,
    timeout: options.timeout,
    tls: options.tls,
    clock: options.clock,
    signal: either.signal,
    found: (host) => {
      if (!stillCurrent()) return;
      debug('read-write server found at %s: leaving read-only %s', describe(host), describe(current));
      hosts.prefer(host);
      conn.close(new ConnectionLossError('moving to a read-write server', true));
    },
  }).finally(() => {
    unlinkProbe();
    unlinkSession();
  });
}
