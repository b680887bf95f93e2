/**
 * The `isro` four-letter word: a server answers "rw" when it serves writes, "ro" when it is read-only.
 * Used by a read-only connection to find a read-write server (Java's pingRwServer). Any failure is "no".
 */
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { HostAddress } from './connect-string.js';

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
