// startServer with a dataDir, restarted on it: the same tree (Stats, ACLs, data), the same sequence counters,
// the open session's ephemerals kept and the session re-attachable, its expiry running again; a closed
// session's ephemerals gone. Snapshots every snapCount txns, a final one on close.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '@zkts/protocol';
import { startServer } from '@zkts/server';
import { ManualClock } from '@zkts/testkit';

import { dumpTree, tempDir, writeWorkload } from './support.js';

describe('a server restarted on its own dataDir', () => {
  it('sees the same tree, counters and sessions', async () => {
    const dataDir = tempDir('restart');
    const first = await startServer({ dataDir, snapCount: 10, preAllocSize: 16 });
    const owner = await writeWorkload(first.connectString);
    const closed = await connect(first.connectString);
    await closed.create('/closed-eph', null, { mode: 'ephemeral' });
    await closed.close();
    const zk = await connect(first.connectString);
    const before = await dumpTree(zk);
    await zk.close();
    const lastZxid = first.lastZxid;
    const sessionId = owner.sessionId;
    await first.close();

    const files = readdirSync(join(dataDir, 'version-2')).sort();
    expect(files.filter((f) => f.startsWith('log.')).length).toBeGreaterThan(2);
    expect(files).toContain(`snapshot.${lastZxid.toString(16)}`);

    await using second = await startServer({ dataDir, preAllocSize: 16 });
    expect(second.lastZxid).toBe(lastZxid);
    const again = await connect(second.connectString);
    const after = await dumpTree(again);
    expect(after.filter((n) => !n.path.startsWith('/zookeeper'))).toEqual(before.filter((n) => !n.path.startsWith('/zookeeper')));
    expect(after.find((n) => n.path === '/app')?.children).toContain('eph');
    expect(after.map((n) => n.path)).not.toContain('/closed-eph');
    const next = await again.create('/app/seq-', null, { mode: 'persistent-sequential' });
    expect(next.path).toBe('/app/seq-0000000010');
    const ephOwner = (await again.exists('/app/eph'))?.ephemeralOwner;
    expect(ephOwner).toBe(sessionId);
    // The session's password is ZooKeeper's, derived from its id: the client re-attaches to the new server.
    owner.updateServers(second.connectString);
    await owner.connected();
    expect(owner.sessionId).toBe(sessionId);
    await owner.close();
    expect(await again.exists('/app/eph')).toBeNull();
    await again.close();
  });

  it('expires a restored session after its timeout and deletes its ephemerals', async () => {
    const dataDir = tempDir('expire');
    const first = await startServer({ dataDir, preAllocSize: 16 });
    const zk = await connect(first.connectString, { sessionTimeout: 6000 });
    await zk.create('/e', null, { mode: 'ephemeral' });
    await first.close();
    const clock = new ManualClock();
    await using second = await startServer({ dataDir, clock, tickTime: 2000, preAllocSize: 16 });
    const c = await connect(second.connectString);
    expect(await c.exists('/e')).not.toBeNull();
    clock.advance(5000);
    expect(await c.exists('/e')).not.toBeNull();
    clock.advance(4000);
    await new Promise((r) => setTimeout(r, 50));
    expect(await c.exists('/e')).toBeNull();
    await c.close();
    void zk.close();
  });
});
