// A TLS-only server: TLS clients work, plaintext ones never get a session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZooKeeper, type ZooKeeperServer } from '@zkts/testkit';
import { TimeoutError, createClient } from '@zkts/protocol';

describe('TLS', () => {
  let server: ZooKeeperServer;

  beforeAll(async () => {
    server = await startZooKeeper({ tls: true, clientPort: false, tickTime: 500 });
  });
  afterAll(async () => {
    await server[Symbol.asyncDispose]();
  });

  it('connects over TLS to the secure port', async () => {
    const material = server.tls;
    expect(material).toBeDefined();
    if (material === undefined) return;
    await using zk = await createClient(server.connectString, {
      sessionTimeout: 4000,
      tls: { ca: material.ca, cert: material.cert, key: material.key },
    }).connect();
    expect(zk.state).toBe('connected');
    await zk.create('/tls', 'secure');
    expect(new TextDecoder().decode((await zk.getData('/tls')).data)).toBe('secure');
  });

  it('a plaintext client gets no session from the TLS port', async () => {
    const zk = createClient(server.connectString, { sessionTimeout: 2000, connectTimeout: 500 });
    await expect(zk.connect({ timeout: 2500 })).rejects.toBeInstanceOf(TimeoutError);
    expect(zk.state).toBe('closed');
  });
});
