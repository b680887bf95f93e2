// SharedCount on the in-memory ZooKeeper with a ManualClock: the loop that follows the node pauses after an
// unexpected error on the injected clock, not on the system clock.
import { describe, expect, it, vi } from 'vitest';

import { ManualClock } from '@zkts/testkit';

import { RecipeArgumentError, SharedCount } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

const int32 = (value: number): Uint8Array => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setInt32(0, value);
  return bytes;
};

describe('SharedCount (in-memory ZooKeeper, manual clock)', () => {
  it('a node it cannot read pauses the loop on the injected clock; the count is read again once the clock moves', async () => {
    const zk = new FakeZk();
    const client = zk.client();
    const clock = new ManualClock();
    const count = new SharedCount(client, '/app/count', 5, { clock });
    await count.start();
    expect(count.count).toBe(5);

    await client.setData('/app/count', new Uint8Array([1, 2, 3])); // not a 4-byte int: the watch fires, the read fails
    await vi.waitFor(() => expect(count.lastError).toBeInstanceOf(RecipeArgumentError));
    expect(clock.pending).toBe(1);
    await client.setData('/app/count', int32(9)); // no watch armed while the loop pauses
    await new Promise((r) => setTimeout(r, 300)); // longer than the pause in real time: still paused
    expect(count.count).toBe(5);

    clock.advance(200);
    await vi.waitFor(() => expect(count.count).toBe(9));
    await count.close();
    expect(clock.pending).toBe(0);
  });
});
