// Deterministic session expiry for the recipe tests: the victim sits behind its own fault proxy; it is cut off,
// another connection takes its session over (sessionId + password) and closes it, then the proxy is restored
// and the victim's reconnect is told its session expired. With renewSession (the default) the victim then
// opens a new session at once.
import { createClient, type ClientOptions, type ZkClient } from '@zkts/protocol';
import { startFaultProxy, type FaultProxy } from '@zkts/testkit';

import { type Clients, sharedServer, sleep } from './helpers.js';

export interface Victim {
  readonly client: ZkClient;
  readonly proxy: FaultProxy;
}

/** Starts fault proxies to the shared server and closes them all in `closeAll()`. */
export class Proxies {
  private readonly open: FaultProxy[] = [];

  async start(): Promise<FaultProxy> {
    const [host, port] = sharedServer().split(',')[0]!.split(':');
    const p = await startFaultProxy({ host: host!, port: Number(port) });
    this.open.push(p);
    return p;
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled(this.open.splice(0).map((p) => p.close()));
  }
}

/** A client behind its own fault proxy, so its session can be expired deterministically (expireSession). */
export async function victimClient(clients: Clients, proxies: Proxies, options: ClientOptions = {}): Promise<Victim> {
  const p = await proxies.start();
  return { client: await clients.connect(p.connectString, options), proxy: p };
}

/**
 * Ends the victim's session from the server side while the victim is cut off (so it cannot move the session
 * back to itself first). Resolves once the victim heard `expired` (a state change: with renewal the client
 * moves on to a new session at once, so `expired` is not a state to poll for); with `renewed`, once it is
 * connected again in its new session.
 */
export async function expireSession(victim: Victim, options: { renewed?: boolean } = {}): Promise<void> {
  const { client } = victim;
  const old = client.sessionId;
  const expired = new Promise<void>((resolve) => {
    const off = client.onStateChange((change) => {
      if (change.state !== 'expired') return;
      off();
      resolve();
    });
  });
  victim.proxy.blackhole();
  victim.proxy.cut();
  const thief = createClient(sharedServer(), { sessionTimeout: 4000, sessionId: old, sessionPassword: client.sessionPassword });
  await thief.connect();
  await thief.close();
  victim.proxy.restore();
  await Promise.race([expired, sleep(10_000).then(() => Promise.reject(new Error('timed out waiting for expiry')))]);
  if (options.renewed === true) {
    await client.connected({ timeout: 10_000 });
    if (client.sessionId === old || client.sessionId === 0n) throw new Error('no new session after the expiry');
  }
}

/** Cuts a random victim's connection every 50–200 ms until `stop()`, which resolves with the number of cuts. */
export function cutAtRandom(victims: readonly Victim[], random: () => number): { stop(): Promise<number>; reached(n: number): Promise<void> } {
  let done = false;
  let cuts = 0;
  const loop = (async () => {
    while (!done) {
      await sleep(50 + random() * 150);
      victims[Math.floor(random() * victims.length)]!.proxy.cut();
      cuts++;
    }
  })();
  return {
    async stop() {
      done = true;
      await loop;
      return cuts;
    },
    // Paces a workload to the cuts (a workload waits for the n-th cut before going on), so a fast run still
    // meets as many cuts as its assertions count, whatever the machine's speed.
    async reached(n) {
      while (cuts < n && !done) await sleep(5);
    },
  };
}
