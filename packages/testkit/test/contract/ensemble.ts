// The ensemble contract every backend meets: three members on distinct ports with one leader, replication,
// re-election when the leader is SIGKILLed and its rejoin as follower with the data, and read-only mode when a
// member loses its quorum. One ensemble per backend: starting three servers is the slow part on two cores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { modeOf, startEnsemble } from '../../src/index.js';
import { openSession } from '../support/raw-zk.js';
import { titled } from './backends.js';

import type { Ensemble } from '../../src/index.js';
import type { BackendUnderTest } from './backends.js';

export function ensembleContract(b: BackendUnderTest): void {
  describe.skipIf(b.unavailable !== undefined)(titled('startEnsemble', b), () => {
    let ensemble: Ensemble;
    beforeAll(async () => {
      ensemble = await startEnsemble({ backend: b.backend, size: 3, tickTime: 500, readOnlyMode: true });
    });
    afterAll(async () => {
      await ensemble?.[Symbol.asyncDispose]();
    });

    it('runs three members on distinct ports with exactly one leader', async () => {
      expect(ensemble.members).toHaveLength(3);
      const ports = new Set(ensemble.members.map((m) => m.port));
      expect(ports.size).toBe(3);
      expect(ensemble.connectString.split(',')).toEqual(ensemble.members.map((m) => `127.0.0.1:${m.port}`));
      const modes = await Promise.all(ensemble.members.map(async (m) => modeOf(await m.fourLetter('srvr'))));
      expect(modes.filter((m) => m === 'leader')).toHaveLength(1);
      expect(modes.filter((m) => m === 'follower')).toHaveLength(2);
      const leader = await ensemble.leader();
      expect(modeOf(await leader.fourLetter('srvr'))).toBe('leader');
    });

    it('replicates a write to every member', async () => {
      const [first, ...others] = ensemble.members;
      if (!first) throw new Error('no member');
      {
        await using session = await openSession(first.host, first.port);
        expect(await session.create('/replicated', 'everywhere')).toBe(0);
      }
      for (const member of others) {
        await using session = await openSession(member.host, member.port);
        // A follower may lag by a moment; the write was acknowledged by a quorum, so retry briefly.
        let got = await session.getData('/replicated');
        for (let i = 0; i < 100 && got.err !== 0; i++) {
          await new Promise((r) => setTimeout(r, 100));
          got = await session.getData('/replicated');
        }
        expect(got).toEqual({ err: 0, data: 'everywhere' });
      }
    });

    it('elects a new leader when the leader is killed, and the old one rejoins as follower', async () => {
      const old = await ensemble.leader();
      await old.kill();
      const next = await ensemble.leader();
      expect(next).not.toBe(old);
      expect(modeOf(await next.fourLetter('srvr'))).toBe('leader');
      await old.start();
      expect(modeOf(await old.fourLetter('srvr'))).toBe('follower');
      // The rejoined member has the data written before it died.
      await using session = await openSession(old.host, old.port);
      expect(await session.getData('/replicated')).toEqual({ err: 0, data: 'everywhere' });
    });

    it('readOnlyMode: a member cut off from the quorum serves read-only, then rejoins', async () => {
      const [lone, ...others] = ensemble.members;
      if (!lone) throw new Error('no member');
      await Promise.all(others.map((m) => m.kill()));
      // Losing the quorum drops the member into LOOKING; with readonlymode it starts a read-only server.
      let mode: string | undefined;
      for (let i = 0; i < 300 && mode !== 'read-only'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        mode = modeOf(await lone.fourLetter('srvr').catch(() => ''));
      }
      expect(mode).toBe('read-only');
      expect(await lone.fourLetter('isro')).toBe('ro');
      await using session = await openSession(lone.host, lone.port, undefined, true);
      expect(await session.getData('/replicated')).toEqual({ err: 0, data: 'everywhere' });
      await Promise.all(others.map((m) => m.start()));
      await ensemble.leader();
      for (let i = 0; i < 300 && (await lone.fourLetter('isro')) !== 'rw'; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await lone.fourLetter('isro')).toBe('rw');
    });
  });
}
