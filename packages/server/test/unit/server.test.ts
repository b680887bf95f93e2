// startServer's handle: options checked before listening, a busy port rejected, close idempotent and freeing
// the port, the connect string usable.
import { createConnection } from 'node:net';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@zkts/protocol/codec';
import { startServer } from '@zkts/server';

describe('startServer', () => {
  it('refuses bad options before listening', async () => {
    await expect(startServer({ tickTime: 0 })).rejects.toThrow(InvalidArgumentError);
    await expect(startServer({ minSessionTimeout: 5000, maxSessionTimeout: 4000 })).rejects.toThrow(/exceeds/);
    await expect(startServer({ port: 70_000 })).rejects.toThrow(InvalidArgumentError);
  });

  it('rejects a busy port, and frees its own on close (twice is fine)', async () => {
    const server = await startServer();
    expect(server.connectString).toBe(`127.0.0.1:${server.port}`);
    await expect(startServer({ port: server.port })).rejects.toThrow(/EADDRINUSE/);
    await server.close();
    await server.close();
    const refused = await new Promise<boolean>((resolve) => {
      const s = createConnection({ host: '127.0.0.1', port: server.port });
      s.on('connect', () => {
        s.destroy();
        resolve(false);
      });
      s.on('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    const again = await startServer({ port: server.port });
    await again.close();
  });
});
