// The two servers every conformance test compares: a real ZooKeeper 3.8 (through @zkts/testkit) and
// startServer, configured alike (tick 500 ms, TTL nodes on, a super user, containers checked every 500 ms unless
// the caller asks for another interval).
import { digestCredential, startZooKeeper, type ZooKeeperServer } from '@zkts/testkit';
import { startServer, type ZkServer } from '@zkts/server';

export const SUPER_PASSWORD = 'secret';

export interface ServerPair {
  zookeeper: ZooKeeperServer;
  ours: ZkServer;
  close(): Promise<void>;
}

export async function startPair(options: { containerCheckIntervalMs?: number } = {}): Promise<ServerPair> {
  const containerCheckIntervalMs = options.containerCheckIntervalMs ?? 500;
  const [zookeeper, ours] = await Promise.all([
    startZooKeeper({ tickTime: 500, extendedTypesEnabled: true, superPassword: SUPER_PASSWORD, containerCheckIntervalMs }),
    startServer({ tickTime: 500, superDigest: digestCredential('super', SUPER_PASSWORD), containerCheckIntervalMs }),
  ]);
  return {
    zookeeper,
    ours,
    async close() {
      await Promise.all([zookeeper[Symbol.asyncDispose](), ours.close()]);
    },
  };
}
