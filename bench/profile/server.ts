// Starts one ZooKeeper with the bench's options (harness/server.ts, the same as `pnpm bench`) and prints its
// connect string, for the profile drivers and for running single bench children by hand
// (ZKTS_SERVER=<printed> …); stops on SIGTERM/SIGINT.
//
//   node --conditions=zkts-source --import tsx bench/profile/server.ts
import { startBenchServer } from '../harness/server.js';

const z = await startBenchServer();
console.log(z.connectString);
const stop = async (): Promise<void> => {
  await z.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
setInterval(() => undefined, 1 << 30);
