// Lock revocation against the real server: Curator's "__REVOKE__" marker written into the holder's node; a
// request made before watching, one made while the holder was disconnected, and Curator (a JVM) revoking a zkts
// holder and being revoked by zkts.
import { describe, expect, it } from 'vitest';

import { attemptRevoke, Mutex, onRevocationRequest, REVOKE_MESSAGE } from '@zkts/recipes';

import { expireSession, victimClient } from '../../support/expiry.js';
import { compileCurator, curator } from '../../support/foreign.js';
import { sharedServer, sleep, text, until, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

describe('lock revocation', () => {
  it('a holder asked to release does; the marker is Curator\'s; a gone node reports false', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const [a, b] = await clients.many(2);
    const lease = await new Mutex(a!, dir).acquire();
    let asked = 0;
    onRevocationRequest(a!, lease, (l) => {
      asked++;
      void l.release();
    });
    const waiting = new Mutex(b!, dir).acquire({ timeout: 10_000 });
    await sleep(200);
    expect(await attemptRevoke(b!, lease.node)).toBe(true);
    const second = await waiting;
    expect(asked).toBe(1);
    expect(lease.released).toBe(true);
    expect(text(REVOKE_MESSAGE)).toBe('__REVOKE__');
    expect(await attemptRevoke(b!, lease.node)).toBe(false);

    // A request written before the holder started watching is heard at once; stop() ends watching.
    expect(await attemptRevoke(a!, second.node)).toBe(true);
    let early = 0;
    onRevocationRequest(b!, second, () => early++);
    await until(() => early === 1, 5000, 'early request heard');
    const third = await new Mutex(a!, `${dir}-2`).acquire();
    let late = 0;
    const stop = onRevocationRequest(a!, third, () => late++);
    await sleep(100);
    stop();
    await attemptRevoke(b!, third.node);
    await sleep(300);
    expect(late).toBe(0);
    await Promise.all([second.release(), third.release()]);
  });

  it('a request written while the holder was disconnected is heard after the reconnect; an expiry ends watching', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    const lease = await new Mutex(victim.client, dir).acquire();
    let asked = 0;
    onRevocationRequest(victim.client, lease, () => asked++);
    await sleep(100);
    victim.proxy.blackhole();
    expect(await attemptRevoke(other, lease.node)).toBe(true);
    await sleep(300);
    expect(asked).toBe(0);
    victim.proxy.cut();
    victim.proxy.restore();
    await until(() => asked === 1, 10_000, 'heard after the reconnect');
    expect(lease.lost.aborted).toBe(false); // same session: still held, only asked
    await lease.release();

    // An expired session takes the node and the lease: nothing is left to revoke, and watching ends quietly.
    const next = await new Mutex(victim.client, dir).acquire();
    let nextAsked = 0;
    onRevocationRequest(victim.client, next, () => nextAsked++);
    await expireSession(victim, { renewed: true });
    expect(next.lost.aborted).toBe(true);
    expect(await attemptRevoke(other, next.node)).toBe(false);
    await sleep(200);
    expect(nextAsked).toBe(0);
  });

  it('Curator revokes a zkts holder, and zkts revokes a Curator holder', async () => {
    const compiled = compileCurator();
    try {
      const dir = `${uniqueRoot()}/lock`;
      const c = await clients.connect();
      const lease = await new Mutex(c, dir).acquire();
      onRevocationRequest(c, lease, (l) => void l.release());
      const revoker = curator(compiled.classpath, 'revoke', sharedServer(), lease.node);
      await revoker.line(/REVOKE-SENT/, 60_000);
      await until(() => lease.released, 10_000, 'zkts holder released');

      const holder = curator(compiled.classpath, 'hold-revocable', sharedServer(), dir);
      const node = (await holder.line(/HELD (\S+)/, 60_000))[1]!;
      expect(node).toMatch(/\/_c_[0-9a-f-]{36}-lock-\d{10}$/);
      const waiting = new Mutex(c, dir).acquire({ timeout: 30_000 });
      expect(await attemptRevoke(c, node)).toBe(true);
      await holder.line(/RELEASED/, 20_000);
      await (await waiting).release();
      expect(await holder.exited).toBe(0);
    } finally {
      compiled.dispose();
    }
  }, 90_000);
});
