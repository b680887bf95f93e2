import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZkClient } from '@zkts/protocol';
import { open, sharedServer, text, uniqueRoot } from '../support/integration.js';

describe('client smoke', () => {
  let client: ZkClient;
  const root = uniqueRoot();

  beforeAll(async () => {
    client = await open(sharedServer());
  });
  afterAll(async () => {
    await client.removeRecursive(root);
    await client.close();
  });

  it('connects and does CRUD', async () => {
    expect(client.state).toBe('connected');
    expect(client.sessionId).not.toBe(0n);
    const created = await client.create(root, 'hello');
    expect(created.path).toBe(root);
    const got = await client.getData(root);
    expect(text(got.data)).toBe('hello');
    const stat = await client.setData(root, 'x', { version: 0 });
    expect(stat.version).toBe(1);
    const w = await client.getData(root, { watch: true });
    await client.setData(root, 'y');
    await expect(w.watch).resolves.toMatchObject({ type: 'dataChanged', path: root });
    await client.create(`${root}/c`);
    expect((await client.getChildren(root)).children).toEqual(['c']);
    await client.delete(`${root}/c`);
    expect(await client.exists(`${root}/c`)).toBeNull();
  });
});
