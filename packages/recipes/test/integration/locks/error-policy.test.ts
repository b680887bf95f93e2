// The client-wide recipeErrorPolicy (Curator's ConnectionStateErrorPolicy), against the real server: a client
// cut off from its server (fault proxy: every connection closed, new ones held) with a mutex held and a
// leadership running; under 'suspended' both are lost at once, under 'expired' both are kept through the
// reconnect; a recipe's own `lostOn` overrides the client's.
import { describe, expect, it } from 'vitest';

import type { ClientOptions, ZkClient } from '@zkts/protocol';
import { LeaderSelector, Mutex, type LostOn } from '@zkts/recipes';
import type { FaultProxy } from '@zkts/testkit';

import { until, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

async function cutOff(options: ClientOptions): Promise<{ client: ZkClient; proxy: FaultProxy }> {
  const proxy = await proxies.start();
  return { client: await clients.connect(proxy.connectString, { sessionTimeout: 8000, ...options }), proxy };
}

/** Cuts every connection and holds new ones until the client is suspended, then lets it reconnect (same session). */
async function outage(client: ZkClient, proxy: FaultProxy, during: () => void = () => undefined): Promise<void> {
  const session = client.sessionId;
  proxy.blackhole();
  proxy.cut();
  await until(() => client.state === 'suspended', 5000, 'suspended');
  during();
  proxy.restore();
  await client.connected({ timeout: 8000 });
  expect(client.sessionId).toBe(session);
}

/** A LeaderSelector that leads until its signal fires; resolves with that signal once it leads. */
async function leading(client: ZkClient, path: string, lostOn?: LostOn): Promise<{ signal: AbortSignal; selector: LeaderSelector }> {
  let resolveSignal!: (s: AbortSignal) => void;
  const started = new Promise<AbortSignal>((r) => (resolveSignal = r));
  const selector = new LeaderSelector(client, path, async (signal) => {
    resolveSignal(signal);
    await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
  }, lostOn === undefined ? {} : { lostOn });
  selector.start();
  return { signal: await started, selector };
}

describe('recipeErrorPolicy', () => {
  it("'suspended': a held mutex and a running leadership are lost as soon as the connection is", async () => {
    const { client, proxy } = await cutOff({ recipeErrorPolicy: 'suspended' });
    expect(client.recipeErrorPolicy).toBe('suspended');
    const root = uniqueRoot('policy');
    const lease = await new Mutex(client, `${root}/lock`).acquire({ timeout: 5000 });
    const { signal, selector } = await leading(client, `${root}/leader`);
    let lostWhileSuspended = false;
    await outage(client, proxy, () => (lostWhileSuspended = lease.lost.aborted && signal.aborted));
    expect(lostWhileSuspended).toBe(true);
    await lease.release();
    await selector.close();
  });

  it("'expired': the same mutex (default 'expired') and leadership (default 'suspended') survive the outage", async () => {
    const { client, proxy } = await cutOff({ recipeErrorPolicy: 'expired' });
    const root = uniqueRoot('policy');
    const mutex = new Mutex(client, `${root}/lock`);
    const lease = await mutex.acquire({ timeout: 5000 });
    const { signal, selector } = await leading(client, `${root}/leader`);
    await outage(client, proxy);
    expect(lease.lost.aborted).toBe(false);
    expect(mutex.isHeld).toBe(true);
    expect(signal.aborted).toBe(false);
    expect(await client.exists(lease.node)).not.toBeNull();
    await lease.release();
    await selector.close();
  });

  it("unset: each recipe's own default (LeaderSelector steps down at suspension, Mutex keeps its hold)", async () => {
    const { client, proxy } = await cutOff({});
    expect(client.recipeErrorPolicy).toBeUndefined();
    const root = uniqueRoot('policy');
    const lease = await new Mutex(client, `${root}/lock`).acquire({ timeout: 5000 });
    const { signal, selector } = await leading(client, `${root}/leader`);
    let seen: [boolean, boolean] = [false, false];
    await outage(client, proxy, () => (seen = [lease.lost.aborted, signal.aborted]));
    expect(seen).toEqual([false, true]);
    await lease.release();
    await selector.close();
  });

  it("a recipe's lostOn overrides the client's policy, both ways", async () => {
    const { client, proxy } = await cutOff({ recipeErrorPolicy: 'expired' });
    const root = uniqueRoot('policy');
    const strict = await new Mutex(client, `${root}/strict`, { lostOn: 'suspended' }).acquire({ timeout: 5000 });
    const lenient = await new Mutex(client, `${root}/lenient`).acquire({ timeout: 5000 });
    const other = await cutOff({ recipeErrorPolicy: 'suspended' });
    const { signal, selector } = await leading(other.client, `${root}/leader`, 'expired');
    let seen: [boolean, boolean] = [false, false];
    await outage(client, proxy, () => (seen = [strict.lost.aborted, lenient.lost.aborted]));
    expect(seen).toEqual([true, false]);
    await outage(other.client, other.proxy);
    expect(signal.aborted).toBe(false);
    await strict.release();
    await lenient.release();
    await selector.close();
  });
});
