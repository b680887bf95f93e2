// A protected create whose connection broke with the create in flight: the leader may have committed it while the
// member the client lists on next has not applied it yet. The search for our uuid must sync first, or it misses
// the node: the retry then makes a second one, and the clean-up leaves an orphan.
import { describe, expect, it } from 'vitest';

import { AbortError, ConnectionLossError, ServerError } from '../../src/errors/errors.js';
import { KeeperCode } from '../../src/errors/codes.js';
import { BackgroundWrites } from '../../src/client/background-writes.js';
import { systemClock } from '../../src/client/clock.js';
import { protectedCreate, type IdempotentClient } from '../../src/client/idempotent.js';
import type { CallOptions, CreateOptions, Data, Stat } from '../../src/client/types.js';

const stat = (owner: bigint): Stat => ({
  czxid: 1n, mzxid: 1n, ctime: 0, mtime: 0, version: 0, cversion: 0, aversion: 0, ephemeralOwner: owner, dataLength: 0, numChildren: 0, pzxid: 1n,
});

/** One parent's children; the first create fails with a connection loss and lands only at the next sync. */
class LaggingClient implements IdempotentClient {
  readonly sessionId = 7n;
  readonly children = new Set<string>();
  readonly calls: string[] = [];
  private lagNext = true;
  private unapplied: string | undefined;
  private sequence = 0;

  connected(options?: CallOptions): Promise<void> {
    return options?.signal?.aborted === true ? Promise.reject(new AbortError('aborted')) : Promise.resolve();
  }
  async create(path: string, _data?: Data | null, options?: CreateOptions): Promise<{ path: string; stat: Stat }> {
    this.calls.push('create');
    const name = path.slice(path.lastIndexOf('/') + 1) + (options?.mode?.endsWith('sequential') === true ? String(this.sequence++).padStart(10, '0') : '');
    if (this.lagNext) {
      this.lagNext = false;
      this.unapplied = name;
      throw new ConnectionLossError('connection lost with the create in flight', true);
    }
    this.children.add(name);
    return { path: `/p/${name}`, stat: stat(0n) };
  }
  async delete(path: string): Promise<void> {
    this.calls.push('delete');
    if (!this.children.delete(path.slice(3))) throw new ServerError(KeeperCode.NO_NODE, path);
  }
  async exists(path: string): Promise<Stat | null> {
    return this.children.has(path.slice(3)) ? stat(0n) : null;
  }
  async getChildren(): Promise<{ children: string[]; stat: Stat }> {
    this.calls.push('getChildren');
    return { children: [...this.children], stat: stat(0n) };
  }
  async sync(): Promise<void> {
    this.calls.push('sync');
    if (this.unapplied !== undefined) this.children.add(this.unapplied);
    this.unapplied = undefined;
  }
}

function writes(client: LaggingClient): BackgroundWrites {
  return new BackgroundWrites(client, { isOver: false }, {}, systemClock, (e) => {
    throw e;
  });
}

describe('protected create after a connection loss with the create in flight', () => {
  it('finds the node the leader committed instead of making a second one', async () => {
    const client = new LaggingClient();
    const created = await protectedCreate(client, writes(client), '/p/job-', 'x', { mode: 'persistent-sequential' });
    await client.sync();
    expect([...client.children]).toEqual([created.path.slice(3)]);
    expect(client.calls.filter((c) => c === 'create')).toHaveLength(1);
  });

  it('a create given up after the loss leaves no orphan: the clean-up finds the late node', async () => {
    const client = new LaggingClient();
    const background = writes(client);
    const controller = new AbortController();
    controller.abort();
    await expect(protectedCreate(client, background, '/p/job-', 'x', { mode: 'persistent-sequential', signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    while (background.pending.length > 0) await new Promise((r) => setTimeout(r, 1));
    await client.sync();
    expect([...client.children]).toEqual([]);
  });
});
