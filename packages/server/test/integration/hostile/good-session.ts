// A well-behaved zkts session that keeps working while hostile input hits the same server: create, read back,
// set, delete in a loop, each result checked. `stop()` ends the loop and says what it saw.
import { connect, type ZkClient } from '@zkts/protocol';

export interface GoodSession {
  readonly client: ZkClient;
  /** Ends the loop: how many cycles passed, the first failure (if any) and whether the session id held. */
  stop(): Promise<{ cycles: number; failure: string | undefined; sameSession: boolean }>;
}

export async function goodSession(connectString: string, root: string): Promise<GoodSession> {
  const client = await connect(connectString, { sessionTimeout: 10_000 });
  const sessionId = client.sessionId;
  await client.create(root);
  let running = true;
  let cycles = 0;
  let failure: string | undefined;
  const loop = (async () => {
    while (running && failure === undefined) {
      try {
        const path = `${root}/n-${cycles}`;
        await client.create(path, `v${cycles}`);
        const { data } = await client.getData(path);
        if (Buffer.from(data).toString() !== `v${cycles}`) throw new Error(`read ${Buffer.from(data).toString()} for v${cycles}`);
        const stat = await client.setData(path, 'w', { version: 0 });
        if (stat.version !== 1) throw new Error(`version ${stat.version} after one set`);
        await client.delete(path, { version: 1 });
        cycles++;
        await new Promise((r) => setTimeout(r, 2));
      } catch (e) {
        failure = e instanceof Error ? e.message : String(e);
      }
    }
  })();
  return {
    client,
    async stop() {
      running = false;
      await loop;
      const sameSession = client.sessionId === sessionId;
      await client.close();
      return { cycles, failure, sameSession };
    },
  };
}
