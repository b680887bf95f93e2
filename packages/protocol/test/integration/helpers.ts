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
