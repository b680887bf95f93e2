// What the recipes remember is remembered per client: container support and the cleanup registry. Also the
// session-gone predicate across the protocol change that maps a server's -112 reply to SessionExpiredError.
import { describe, expect, it } from 'vitest';

import { KeeperCode, ServerError, SessionExpiredError, type CreateMode } from '@zkts/protocol';

import { removeNode, settleCleanups } from '../../../src/internal/cleanup.js';
import { clientState } from '../../../src/internal/client-state.js';
import { Mutex } from '../../../src/index.js';
import { isSessionGone } from '../../../src/internal/index.js';
import { FakeZk, type FakeClient } from '../../support/fake-zk.js';

/** Records the create modes a client sends; with `containers: false` it answers them as a 3.4 server would. */
function recordModes(c: FakeClient, options: { containers: boolean }): CreateMode[] {
  const modes: CreateMode[] = [];
  const create = c.create.bind(c);
  c.create = (path, data, opts) => {
    const mode = opts?.mode ?? 'persistent';
    modes.push(mode);
    if (mode === 'container' && !options.containers) return Promise.reject(new ServerError(KeeperCode.UNIMPLEMENTED, path));
    return create(path, data, opts);
  };
  return modes;
}

describe('per-client state', () => {
  it('a server without containers makes only ITS client fall back to persistent parents', async () => {
    const old = new FakeZk().client();
    const modern = new FakeZk().client();
    const oldModes = recordModes(old, { containers: false });
    const modernModes = recordModes(modern, { containers: true });

    await (await new Mutex(old, '/a/lock').acquire()).release();
    expect(oldModes).toEqual(['ephemeral-sequential', 'container', 'persistent', 'persistent', 'ephemeral-sequential']);
    expect(clientState(old).containersUnsupported).toBe(true);

    // The other client, in the same process, still creates containers.
    await (await new Mutex(modern, '/b/lock').acquire()).release();
    expect(modernModes).toEqual(['ephemeral-sequential', 'container', 'container', 'ephemeral-sequential']);
    expect(clientState(modern).containersUnsupported).toBe(false);
  });

  it("settling one client's cleanups does not wait for another client's stuck removal", async () => {
    const zk = new FakeZk();
    const stuck = zk.client();
    const other = zk.client();
    zk.create('/n', null, 'persistent', 0n);
    let finish: (() => void) | undefined;
    stuck.delete = () => new Promise<void>((resolve) => (finish = resolve)); // a delete that hangs (an outage)
    const job = removeNode(stuck, { path: '/n' });
    expect(clientState(stuck).cleanups.size).toBe(1);
    expect(clientState(other).cleanups.size).toBe(0);

    let otherSettled = false;
    await settleCleanups(other).then(() => (otherSettled = true));
    expect(otherSettled).toBe(true);

    let stuckSettled = false;
    const settling = settleCleanups(stuck).then(() => (stuckSettled = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(stuckSettled).toBe(false);
    finish?.();
    await Promise.all([job, settling]);
    expect(stuckSettled).toBe(true);
    expect(clientState(stuck).cleanups.size).toBe(0);
  });
});

describe('isSessionGone', () => {
  it('accepts a server-sent SESSION_EXPIRED (-112) both as ServerError and as SessionExpiredError', () => {
    expect(isSessionGone(new ServerError(KeeperCode.SESSION_EXPIRED, '/x'))).toBe(true);
    expect(isSessionGone(new SessionExpiredError())).toBe(true);
    expect(isSessionGone(new ServerError(KeeperCode.NO_NODE, '/x'))).toBe(false);
  });
});
