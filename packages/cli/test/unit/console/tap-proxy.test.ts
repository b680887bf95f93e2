/**
 * The shared proxy byte path (zkts proxy and the console's TrafficSource): a tap that throws changes nothing
 * on the wire, and close() resolves only once every connection's tap heard its end.
 */
import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { listenTapProxy, TapProxyListenError } from '../../../src/tap-proxy.js';
import { until } from '../../support/wait.js';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

/** An upstream that echoes every byte back. */
async function echoUpstream(): Promise<number> {
  const server = createServer((socket) => socket.on('data', (d: Buffer) => socket.write(d)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => server.close());
  return (server.address() as AddressInfo).port;
}

describe('tap proxy', () => {
  it('forwards every byte while the tap throws, reports each throw, and closes every connection', async () => {
    const upstream = await echoUpstream();
    const errors: number[] = [];
    const closed: string[] = [];
    const proxy = await listenTapProxy({
      listen: { host: '127.0.0.1', port: 0 },
      upstream: { host: '127.0.0.1', port: upstream },
      open: ({ id }) => ({
        lines() {
          throw new Error(`tap bug on #${id}`);
        },
        closed(_time, why) {
          closed.push(why);
        },
      }),
      tapError: (conn) => errors.push(conn),
    });
    const socket: Socket = connect({ host: '127.0.0.1', port: proxy.port });
    socket.on('error', () => undefined);
    const received: Buffer[] = [];
    socket.on('data', (d: Buffer) => received.push(d));
    // One whole frame (length 3) each way, so the tap is called and throws both times.
    const frame = Buffer.from([0, 0, 0, 3, 1, 2, 3]);
    socket.write(frame);
    await until(() => Buffer.concat(received).equals(frame), 'echoed through the proxy');
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors.every((conn) => conn === 0)).toBe(true);
    expect(proxy.connections).toBe(1);
    await proxy.close();
    expect(proxy.connections).toBe(0);
    expect(closed).toHaveLength(1);
  });

  it('says why it cannot listen, with a stable code', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => taken.close());
    const port = (taken.address() as AddressInfo).port;
    const failed = listenTapProxy({ listen: { host: '127.0.0.1', port }, upstream: { host: '127.0.0.1', port: 1 }, open: () => ({ lines() {}, closed() {} }) });
    await expect(failed).rejects.toBeInstanceOf(TapProxyListenError);
    await expect(failed).rejects.toMatchObject({ code: 'LISTEN_FAILED', reason: expect.stringMatching(/EADDRINUSE/) });
  });
});
