// Starts one ZooKeeper with the options `pnpm bench` uses (full JIT, raised jute.maxbuffer and session
// timeout) for the profile drivers and for running single bench children by hand; prints its connect string
// and stops on SIGTERM/SIGINT.
import { startZooKeeper } from '@zkts/testkit';

const z = await startZooKeeper({
  heap: '1g',
  logLevel: 'ERROR',
  maxSessionTimeout: 60_000,
  jvmArgs: ['-XX:TieredStopAtLevel=4', '-Dzookeeper.globalOutstandingLimit=100000', '-Djute.maxbuffer=4194304'],
});
console.log(z.connectString);
const stop = async (): Promise<void> => {
  await z.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
setInterval(() => undefined, 1 << 30);
