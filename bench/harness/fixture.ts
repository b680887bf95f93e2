// The harness's own session (zkts, in the parent process, never measured): it builds the run's fixture (one
// node with many children, shared by the watch-replay and 100k-children rows so 100,000 nodes are created once
// per run, not once per client and pass) and, for the watch-replay row, changes every child while the measured
// client is cut off (the proxy's `change` command, replay-proxy.ts).
import { connect } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';

import { pipeline } from './measure.js';
import { childName, MAX_PACKET } from './scale.js';

export interface Fixture {
  readonly path: string;
  readonly children: number;
  /** setData on every child (a new mzxid on each, so a replayed watch fires). */
  changeAll(): Promise<void>;
  /** Deletes nothing (the server is the run's own, or a scratch one); closes the session. */
  close(): Promise<void>;
}

export async function createFixture(connectString: string, path: string, children: number, window: number): Promise<Fixture> {
  const client: ZkClient = await connect(connectString, { sessionTimeout: 30_000, maxPacket: MAX_PACKET });
  await client.create(path, new Uint8Array(0));
  const one = new Uint8Array([0x30]);
  await pipeline(children, window, (i, done) => void client.create(`${path}/${childName(i)}`, one).then(() => done(null), done));
  let round = 0;
  return {
    path,
    children,
    changeAll: async () => {
      const data = new Uint8Array([0x31 + (round++ % 9)]);
      await pipeline(children, window, (i, done) => void client.setData(`${path}/${childName(i)}`, data).then(() => done(null), done));
    },
    close: async () => { await client.close(); },
  };
}
