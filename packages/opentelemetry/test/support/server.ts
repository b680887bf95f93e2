/**
 * The shared test server of the integration project (started by @zkts/testkit's global setup), clients that
 * close themselves after each test, a root node per file, and waiting on a condition with a deadline.
 */
import { randomBytes } from 'node:crypto';

import { connect, type ClientOptions, type ZkClient } from '@zkts/protocol';
import { inject } from 'vitest';

export function sharedServer(): string {
  return inject('zkConnectString');
}

/** The first host of a connect string as the attributes show it: '127.0.0.1' and 2181. */
export function hostPort(connectString: string): { host: string; port: number } {
  const first = connectString.split(',')[0] ?? '';
  const colon = first.lastIndexOf(':');
  return { host: first.slice(0, colon), port: Number(first.slice(colon + 1)) };
}

export function uniqueRoot(prefix: string): string {
  return `/${prefix}-${randomBytes(6).toString('hex')}`;
}

export const hex = (id: bigint): string => `0x${id.toString(16)}`;

/** Resolves when `predicate` holds, polling every 20 ms; rejects after `timeout` ms. */
export async function until(predicate: () => boolean, timeout = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Clients opened for one test, closed by `closeAll()` (an afterEach). */
export class Clients {
  private readonly open: ZkClient[] = [];

  async connect(connectString = sharedServer(), options: ClientOptions = {}): Promise<ZkClient> {
    const zk = await connect(connectString, { sessionTimeout: 4000, ...options });
    this.open.push(zk);
    return zk;
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled(this.open.splice(0).map((zk) => zk.close()));
  }
}
