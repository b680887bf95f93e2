// The bytes of SASL's edges, side by side with ZooKeeper 3.8: the challenge's shape, a failed exchange's reply
// (header, then a null token) and close, enforce.auth's -124 and close, a sasl request on a server without SASL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZooKeeper, type ZooKeeperServer } from '@zkts/testkit';
import { startServer, type ZkServer } from '@zkts/server';

import { connectFrame, rawConnect, replyOf, requestFrame, type Raw } from '../support/raw.js';

const USERS = { bob: 'bob-secret' };
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

async function session(port: number): Promise<Raw> {
  const raw = await rawConnect(port);
  raw.socket.write(connectFrame());
  await raw.next();
  return raw;
}

/** What one server answers: the challenge's directive names, then a wrong response's frame and the close. */
async function failedExchange(port: number): Promise<unknown> {
  const raw = await session(port);
  raw.socket.write(requestFrame(1, 102, { token: new Uint8Array(0) }));
  const challenge = replyOf(await raw.next());
  const text = Buffer.from(challenge.r.readBuffer() ?? new Uint8Array(0)).toString('utf8');
  raw.socket.write(requestFrame(2, 102, { token: Buffer.from('username="bob",realm="zk-sasl-md5",nonce="x",nc=00000001,cnonce="y",digest-uri="zookeeper/zk-sasl-md5",response=00,qop=auth') }));
  const failure = await raw.next();
  await raw.closed;
  return {
    challengeHeader: { xid: challenge.xid, zxid: challenge.zxid, err: challenge.err },
    directives: text.replace(/nonce="[^"]*"/, 'nonce="N"'),
    failure: hex(failure),
  };
}

async function enforced(port: number): Promise<unknown> {
  const raw = await session(port);
  raw.socket.write(requestFrame(5, 3, { path: '/', watch: false }));
  const frame = await raw.next();
  await raw.closed;
  return hex(frame);
}

describe('SASL on the wire, side by side with ZooKeeper', () => {
  let zookeeper: ZooKeeperServer;
  let ours: ZkServer;
  let enforcedZk: ZooKeeperServer;
  let enforcedOurs: ZkServer;

  beforeAll(async () => {
    [zookeeper, ours, enforcedZk, enforcedOurs] = await Promise.all([
      startZooKeeper({ sasl: { digestUsers: USERS }, tickTime: 500 }),
      startServer({ saslUsers: USERS, tickTime: 500 }),
      startZooKeeper({ sasl: { digestUsers: USERS }, tickTime: 500, enforceAuth: ['sasl'] }),
      startServer({ saslUsers: USERS, tickTime: 500, enforceAuth: true }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([zookeeper?.[Symbol.asyncDispose](), ours?.close(), enforcedZk?.[Symbol.asyncDispose](), enforcedOurs?.close()]);
  });

  it('the challenge, and a failed exchange: the same bytes, then the close', async () => {
    const theirs = await failedExchange(zookeeper.port);
    expect(await failedExchange(ours.port)).toEqual(theirs);
  });

  it('enforce.auth: -124 for the first request, then the close (same bytes); a failed exchange answers -124', async () => {
    expect(await enforced(enforcedOurs.port)).toBe(await enforced(enforcedZk.port));
    const [a, b] = [await failedExchange(enforcedZk.port), await failedExchange(enforcedOurs.port)];
    expect(b).toEqual(a);
  });
});
