// Shared bits of the recipes integration tests: a unique root per test, connected clients that are closed at
// the end, and polling.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { connect, type ClientOptions, type ZkClient } from '@zkts/protocol';

export function uniqueRoot(prefix = 'recipes'): string {
  return `/${prefix}-${randomBytes(6).toString('hex')}`;
}

export function sharedServer(): string {
  return inject('zkConnectString');
}

/** Opens clients and closes them all in `closeAll()`. */
export class Clients {
  private readonly open: ZkClient[] = [];

  async connect(connectString = sharedServer(), options: ClientOptions = {}): Promise<ZkClient> {
    const c = await connect(connectString, { sessionTimeout: 4000, ...options });
    this.open.push(c);
    return c;
  }

  async many(n: number, connectString = sharedServer(), options: ClientOptions = {}): Promise<ZkClient[]> {
    return Promise.all(Array.from({ length: n }, () => this.connect(connectString, options)));
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled(this.open.splice(0).map((c) => c.close()));
  }
}

/** Resolves when `predicate` holds, polling; rejects after `timeout` ms. */
export async function until(predicate: () => boolean | Promise<boolean>, timeout = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Children of `path`, or [] when it does not exist. */
export async function childrenOf(client: ZkClient, path: string): Promise<string[]> {
  try {
    return (await client.getChildren(path)).children;
  } catch (e) {
    if (e instanceof Error && 'code' in e && e.code === 'NO_NODE') return [];
    throw e;
  }
}

/** The seed of a randomized test (`testSeed` prints it at once); `ZKTS_SEED=<n>` replays it (test/support/seed.ts). */
export { replaySeed, testSeed } from '../../../../test/support/seed.js';

/** Deterministic pseudo-random numbers, so a failing schedule can be replayed from the printed seed. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
