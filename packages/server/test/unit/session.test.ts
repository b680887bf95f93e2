// Sessions on a manual clock: ids, expiry in tick buckets, touch, and a server that expires a silent session.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@zkts/testkit';
import { JuteReader, readConnectResponse } from '@zkts/protocol/codec';
import { startServer } from '@zkts/server';
import { initialSessionId, SessionTracker, type Session } from '../../src/session/session-tracker.js';
import { connectFrame, rawConnect, replyOf, requestFrame } from '../support/raw.js';

describe('session ids', () => {
  it('are ((time << 24) >>> 8) with server id 0, skipping the container marker', () => {
    expect(initialSessionId(1)).toBe(1n << 16n);
    expect(initialSessionId(1_700_000_000_000)).toBe(BigInt.asUintN(64, 1_700_000_000_000n << 24n) >> 8n);
    expect(initialSessionId(0)).toBe(0n);
  });
});

describe('SessionTracker', () => {
  it('expires sessions at the first tick boundary after now + timeout, unless touched', () => {
    const clock = new ManualClock(10_000);
    const expired: bigint[] = [];
    const tracker = new SessionTracker(clock, 1000, (s: Session) => {
      expired.push(s.id);
      tracker.remove(s.id);
    });
    const a = tracker.create(3000);
    const b = tracker.create(3000);
    expect(b.id).toBe(a.id + 1n);
    expect(a.password.byteLength).toBe(16);
    expect(a.expiresAt).toBe(14_000);
    clock.advance(2500);
    expect(tracker.touch(b.id, 3000)).toBe(true);
    expect(b.expiresAt).toBe(16_000);
    clock.advance(1500);
    expect(expired).toEqual([a.id]);
    expect(tracker.touch(a.id, 3000)).toBe(false);
    clock.advance(2000);
    expect(expired).toEqual([a.id, b.id]);
    tracker.stop();
  });
});

describe('expiry through the server', () => {
  it('closes a silent session on the server clock, deletes its ephemerals and refuses a re-attach', async () => {
    const clock = new ManualClock(Date.now());
    await using server = await startServer({ tickTime: 500, clock });
    const raw = await rawConnect(server.port);
    raw.socket.write(connectFrame({ timeout: 2000 }));
    const resp = readConnectResponse(new JuteReader(await raw.next()));
    expect(resp.timeOut).toBe(2000);
    raw.socket.write(requestFrame(1, 1, { path: '/e', data: null, acl: [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }], flags: 1 }));
    expect(replyOf(await raw.next()).err).toBe(0);
    const zxidBefore = server.lastZxid;
    await clock.advanceAsync(1900);
    expect(raw.isClosed()).toBe(false);
    await clock.advanceAsync(1000);
    await raw.closed;
    expect(server.lastZxid).toBe(zxidBefore + 1n);
    const again = await rawConnect(server.port);
    again.socket.write(connectFrame({ sessionId: resp.sessionId, passwd: resp.passwd ?? new Uint8Array(16), lastZxidSeen: zxidBefore }));
    const refused = readConnectResponse(new JuteReader(await again.next()));
    expect([refused.timeOut, refused.sessionId]).toEqual([0, 0n]);
    await again.closed;
  });
});
