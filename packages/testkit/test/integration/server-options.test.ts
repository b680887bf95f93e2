import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { digestCredential, startZooKeeper } from '../../src/index.js';
import { acl, buffer, connectRequest, Frames, int, long, OP, openSession, parseConnectResponse, ustring } from '../support/raw-zk.js';

import type { ZooKeeperServer } from '../../src/index.js';

const ALL = 31;
const open = (): Buffer => acl(ALL, 'world', 'anyone');

/** Opens a raw socket, asks for `timeout` and returns the negotiated session timeout. */
async function negotiated(server: ZooKeeperServer, timeout: number): Promise<number> {
  const { connect } = await import('node:net');
  const socket = connect({ host: server.host, port: server.port });
  const frames = new Frames();
  socket.on('data', (c: Buffer) => frames.push(c));
  socket.write(connectRequest(timeout));
  try {
    return parseConnectResponse(await frames.next()).timeOut;
  } finally {
    socket.destroy();
  }
}

describe('server options reach the server', () => {
  let server: ZooKeeperServer;
  beforeAll(async () => {
    server = await startZooKeeper({
      tickTime: 200,
      minSessionTimeout: 1000,
      maxSessionTimeout: 4000,
      fourLetterWhitelist: 'srvr,ruok,conf,isro',
      extendedTypesEnabled: true,
      containerCheckIntervalMs: 100,
      superPassword: 'secret',
    });
  });
  afterAll(async () => {
    await server?.[Symbol.asyncDispose]();
  });

  it('tickTime and session timeout bounds', async () => {
    const conf = await server.fourLetter('conf');
    expect(conf).toMatch(/^tickTime=200$/m);
    expect(conf).toMatch(/^minSessionTimeout=1000$/m);
    expect(conf).toMatch(/^maxSessionTimeout=4000$/m);
    expect(await negotiated(server, 100)).toBe(1000);
    expect(await negotiated(server, 60_000)).toBe(4000);
  });

  it('the four-letter whitelist', async () => {
    expect(await server.fourLetter('ruok')).toBe('imok');
    expect(await server.fourLetter('mntr')).toMatch(/not in the whitelist/);
  });

  it('extendedTypesEnabled allows TTL nodes', async () => {
    await using session = await openSession(server.host, server.port);
    // CreateTTLRequest {path, data, acl, flags = PERSISTENT_WITH_TTL (5), ttl}.
    const body = Buffer.concat([ustring('/ttl'), buffer(Buffer.from('t')), open(), int(5), long(60_000n)]);
    expect((await session.call(OP.createTTL, body)).err).toBe(0);
  });

  it('containerCheckIntervalMs reaps an emptied container quickly', async () => {
    await using session = await openSession(server.host, server.port);
    const create = (op: number, path: string, flags: number): Promise<{ err: number }> =>
      session.call(op, Buffer.concat([ustring(path), buffer(Buffer.alloc(0)), open(), int(flags)]));
    expect((await create(OP.createContainer, '/box', 4)).err).toBe(0);
    expect((await create(OP.create, '/box/item', 0)).err).toBe(0);
    expect((await session.call(OP.delete, Buffer.concat([ustring('/box/item'), int(-1)]))).err).toBe(0);
    const exists = async (): Promise<number> => (await session.call(OP.exists, Buffer.concat([ustring('/box'), Buffer.from([0])]))).err;
    let err = await exists();
    // The default interval is a minute; at 100 ms the container goes within a couple of seconds.
    for (let i = 0; i < 50 && err === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      err = await exists();
    }
    expect(err).toBe(-101); // NONODE
  });

  it('superPassword makes `super` bypass ACLs', async () => {
    await using owner = await openSession(server.host, server.port);
    const locked = acl(ALL, 'digest', digestCredential('someone', 'pw'));
    expect((await owner.call(OP.create, Buffer.concat([ustring('/locked'), buffer(Buffer.from('x')), locked, int(0)]))).err).toBe(0);
    expect((await owner.getData('/locked')).err).toBe(-102); // NOAUTH
    await using admin = await openSession(server.host, server.port);
    expect(await admin.addAuth('digest', 'super:secret')).toBe(0);
    expect(await admin.getData('/locked')).toEqual({ err: 0, data: 'x' });
  });
});

describe('a narrow whitelist', () => {
  it('starts (ZooKeeper always allows srvr, which readiness uses) and refuses other words', async () => {
    await using server = await startZooKeeper({ fourLetterWhitelist: 'ruok' });
    expect(await server.fourLetter('stat')).toMatch(/not in the whitelist/);
    expect(await server.fourLetter('srvr')).toMatch(/^Mode: standalone$/m);
  });
});
