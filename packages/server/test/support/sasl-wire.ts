// Raw SASL exchanges for the side-by-side SASL tests: a failed DIGEST-MD5 exchange and an enforce.auth refusal,
// as bytes, so ZooKeeper's answers and this server's can be compared exactly.
import { connectFrame, rawConnect, replyOf, requestFrame, type Raw } from './raw.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

async function session(port: number): Promise<Raw> {
  const raw = await rawConnect(port);
  raw.socket.write(connectFrame());
  await raw.next();
  return raw;
}

/** What one server answers: the challenge's directive names, then a wrong response's frame and the close. */
export async function failedExchange(port: number): Promise<unknown> {
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

export async function enforced(port: number): Promise<unknown> {
  const raw = await session(port);
  raw.socket.write(requestFrame(5, 3, { path: '/', watch: false }));
  const frame = await raw.next();
  await raw.closed;
  return hex(frame);
}
