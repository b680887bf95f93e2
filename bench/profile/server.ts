// Starts one ZooKeeper for the profile drivers and prints its connect string; stops on SIGTERM/SIGINT.
import { startZooKeeper } from '@zkts/testkit';
const z = await startZooKeeper({ jvmArgs: ['-XX:TieredStopAtLevel=4'] });
console.log(z.connectString);
const stop = async () => { await z.stop(); process.exit(0); };
process.on('SIGTERM', stop); process.on('SIGINT', stop);
setInterval(() => undefined, 1 << 30);
