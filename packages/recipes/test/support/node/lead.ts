// Child process for the "leader killed" tests: joins a LeaderElection (Curator LeaderLatch's layout) as `<id>`
// with a short session, prints `JOINED <node> <sessionId>`, then `LEADING <node> <sessionId>` once it leads, and
// holds until it is killed. Run with `node --conditions=zkts-source --import tsx lead.ts <cs> <dir> <id> [timeout]`.
import { connect } from '@zkts/protocol';

import { LeaderElection } from '../../../src/index.js';

const [connectString, dir, id, timeout] = process.argv.slice(2);
if (connectString === undefined || dir === undefined || id === undefined) throw new Error('usage: lead.ts <connectString> <dir> <id> [sessionTimeout]');
const client = await connect(connectString, { sessionTimeout: Number(timeout ?? 4000) });
const election = new LeaderElection(client, dir, { id });
await election.start();
process.stdout.write(`JOINED ${election.node} ${client.sessionId}\n`);
await election.awaitLeadership();
process.stdout.write(`LEADING ${election.node} ${client.sessionId}\n`);
setInterval(() => undefined, 1 << 30); // hold until SIGKILL
