// Shared bits of the client integration tests: a unique root per file, and a connected client.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { connect, type ClientOptions, type ZkClient } from '@zkts/protocol';

export function uniqueRoot(prefix = 't'): string {
  return `/${prefix}-${randomBytes(6).toString('hex')}`;
}

export function sharedServer(): string {
  return inject('zkConnectString');
}

export async function open(connectString: string, options: ClientOptions = {}): Promise<ZkClient> {
  return connect(connectString, { sessionTimeout: 4000, ...options });
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

/** '127.0.0.1:2181' → { host, port } (the first host of a connect string). */
export function hostPort(connectString: string): { host: string; port: number } {
  const first = connectString.split(',')[0] ?? '';
  const colon = first.lastIndexOf(':');
  return { host: first.slice(0, colon), port: Number(first.slice(colon + 1)) };
}

/** Resolves with the first state change to `state` (or rejects after `timeout`). */
export function waitForState(client: ZkClient, state: string, timeout = 15_000): Promise<void> {
  if (client.state === state) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`state ${state} not reached within ${timeout} ms (now ${client.state})`));
    }, timeout);
    const off = client.onStateChange((c) => {
      if (c.state === state) {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  });
}
