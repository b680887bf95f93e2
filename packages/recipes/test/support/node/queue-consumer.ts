// A lock-safe DistributedQueue consumer in its own process, for the tests that kill a consumer mid-item
// (SIGKILL: no cleanup at all, its session ends only by timeout). Run with node --conditions=zkts-source
// --import tsx. Prints "GOT <message>" when a message arrives and "FINISHED <message>" when its consumer
// returns; a message named in <hang> is never finished.
//
//   queue-consumer.ts <connect> <queuePath> <lockPath> <hang>
import { connect } from '@zkts/protocol';

import { DistributedQueue } from '../../../src/index.js';

const [server, path, lockPath, hang] = process.argv.slice(2) as [string, string, string, string];
const client = await connect(server, { sessionTimeout: 4000 });
const queue = new DistributedQueue<string>(client, path, {
  lockPath,
  serializer: { serialize: (s) => new TextEncoder().encode(s), deserialize: (b) => new TextDecoder().decode(b) },
  consumer: async (message) => {
    process.stdout.write(`GOT ${message}\n`);
    if (message === hang) await new Promise(() => undefined);
    process.stdout.write(`FINISHED ${message}\n`);
  },
});
await queue.start();
process.stdout.write('STARTED\n');
