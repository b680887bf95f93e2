// The zkts client against startServer: the basic operations, a watch, ephemerals gone with the session.
import { describe, expect, it } from 'vitest';
import { connect } from '@zkts/protocol';
import { startServer } from '@zkts/server';

describe('startServer with the zkts client', () => {
  it('creates, reads, watches and cleans up ephemerals', async () => {
    await using server = await startServer();
    const zk = await connect(server.connectString, { sessionTimeout: 10_000 });
    const created = await zk.create('/a', 'hello');
    expect(created.path).toBe('/a');
    const { data, stat } = await zk.getData('/a');
    expect(new TextDecoder().decode(data)).toBe('hello');
    expect(stat.version).toBe(0);
    await zk.create('/a/e', null, { mode: 'ephemeral' });
    const seq = await zk.create('/a/s-', null, { mode: 'persistent-sequential' });
    expect(seq.path).toBe('/a/s-0000000001');
    expect((await zk.getChildren('/a')).children.sort()).toEqual(['e', 's-0000000001']);
    const other = await connect(server.connectString, { sessionTimeout: 10_000 });
    const events: string[] = [];
    await other.exists('/a/e', { watch: (e) => events.push(`${e.type} ${e.path}`) });
    await zk.close();
    expect(await other.exists('/a/e')).toBeNull();
    expect(events).toEqual(['deleted /a/e']);
    await other.close();
  });
});
