// Closing stops the background writes: one running is cancelled, and none starts afterwards, also on a
// BackgroundWrites made after the client's close() or closed before any write ran.
import { describe, expect, it } from 'vitest';

import { BackgroundWrites, type StepResult, type WriteHost } from '../../src/client/background-writes.js';
import { systemClock } from '../../src/client/clock.js';
import { ClientClosedError, ConnectionLossError } from '../../src/errors/errors.js';

const host: WriteHost = { connected: () => Promise.resolve() };
const make = (closed?: boolean): BackgroundWrites =>
  new BackgroundWrites(host, { isOver: false }, {}, systemClock, (e) => {
    throw e;
  }, closed);
const done = (): Promise<StepResult> => Promise.resolve('done');

describe('BackgroundWrites and close', () => {
  it('closed before any write ran: nothing to report, and a write asked for later is refused', async () => {
    const writes = make();
    expect(writes.cancelAll()).toEqual([]);
    await expect(writes.run('guaranteed-delete', '/a', done)).rejects.toThrow(ClientClosedError);
    expect(writes.pending).toEqual([]);
  });

  it('made after the close (closed = true): refuses every write', async () => {
    await expect(make(true).run('guaranteed-delete', '/a', done)).rejects.toThrow(/the client is closed: guaranteed-delete of \/a not started/);
  });

  it('a write still retrying is cancelled with ClientClosedError and reported unfinished', async () => {
    const writes = make();
    const failing = (): Promise<StepResult> => Promise.reject(new ConnectionLossError('lost', true));
    const running = writes.run('guaranteed-delete', '/b', failing);
    const unfinished = writes.cancelAll();
    expect(unfinished.map((w) => [w.kind, w.path])).toEqual([['guaranteed-delete', '/b']]);
    await expect(running).rejects.toThrow(ClientClosedError);
  });

  it('a client that was not closed runs its writes (the control)', async () => {
    await expect(make().run('guaranteed-delete', '/c', done)).resolves.toBe('done');
  });
});
