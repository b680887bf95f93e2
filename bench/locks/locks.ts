// Reusable lock measurements for @zkts/recipes' Mutex (the bench harness can call these directly):
// uncontended acquire+release cycles per second, and handoffs per second between N contenders (one client each).
import type { ZkClient } from '@zkts/protocol';
import { Mutex } from '@zkts/recipes';

export interface CycleResult {
  cycles: number;
  ms: number;
  cyclesPerSec: number;
}

export interface HandoffResult {
  contenders: number;
  handoffs: number;
  ms: number;
  handoffsPerSec: number;
  /** Times two contenders were inside at once (must be 0). */
  overlaps: number;
  /** Predecessor-deletion wakeups per handoff, summed over the contenders' Mutex stats (1 = herd-free). */
  wakeupsPerHandoff: number;
}

/** One Mutex instance acquiring and releasing `cycles` times with nobody else around. */
export async function uncontendedCycles(client: ZkClient, dir: string, cycles: number, warmup = Math.min(200, cycles)): Promise<CycleResult> {
  const mutex = new Mutex(client, dir);
  for (let i = 0; i < warmup; i++) await (await mutex.acquire()).release();
  const t0 = performance.now();
  for (let i = 0; i < cycles; i++) await (await mutex.acquire()).release();
  const ms = performance.now() - t0;
  return { cycles, ms, cyclesPerSec: cycles / (ms / 1000) };
}

/** `clients.length` contenders loop acquire → release until `target` grants in total; measures the handoffs. */
export async function handoffs(clients: readonly ZkClient[], dir: string, target: number): Promise<HandoffResult> {
  const mutexes = clients.map((c) => new Mutex(c, dir));
  let granted = 0;
  let inside = false;
  let overlaps = 0;
  let firstGrantAt = 0;
  let lastGrantAt = 0;
  await Promise.all(
    mutexes.map(async (m) => {
      while (granted < target) {
        const lease = await m.acquire();
        if (inside) overlaps++;
        inside = true;
        granted++;
        const now = performance.now();
        if (granted === 1) firstGrantAt = now;
        lastGrantAt = now;
        inside = false;
        await lease.release();
      }
    }),
  );
  const handed = granted - 1;
  const ms = lastGrantAt - firstGrantAt;
  const wakeups = mutexes.reduce((s, m) => s + m.stats.wakeups, 0);
  return { contenders: clients.length, handoffs: handed, ms, handoffsPerSec: handed / (ms / 1000), overlaps, wakeupsPerHandoff: wakeups / handed };
}
