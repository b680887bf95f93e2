// Shared bits of the client integration tests: a unique root per file, and a connected client.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { startFaultProxy, type FaultProxy } from '@zkts/testkit';
import { connect, createClient, type ClientOptions, type ZkClient } from '@zkts/protocol';

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

export interface ProxiedRoot {
  /** In front of the shared server; restored after each test. */
  readonly proxy: FaultProxy;
  /** A client straight to the server, to look behind the proxy. */
  readonly direct: ZkClient;
  readonly root: string;
  /** A client through the proxy, closed after the test. */
  viaProxy(options?: ClientOptions): Promise<ZkClient>;
}

/** For one describe block: a fault proxy, a direct client and a root node, with their set-up and clean-up hooks. */
export function proxiedRoot(prefix: string): ProxiedRoot {
  let proxy: FaultProxy | undefined;
  let direct: ZkClient | undefined;
  const clients: ZkClient[] = [];
  const root = uniqueRoot(prefix);
  beforeAll(async () => {
    proxy = await startFaultProxy(hostPort(sharedServer()));
    direct = await open(sharedServer());
    await direct.create(root);
  });
  afterEach(async () => {
    proxy?.restore();
    for (const c of clients.splice(0)) await c.close();
  });
  afterAll(async () => {
    await direct?.removeRecursive(root);
    await direct?.close();
    await proxy?.close();
  });
  return {
    get proxy(): FaultProxy {
      if (proxy === undefined) throw new Error('proxiedRoot: used outside a test');
      return proxy;
    },
    get direct(): ZkClient {
      if (direct === undefined) throw new Error('proxiedRoot: used outside a test');
      return direct;
    },
    root,
    async viaProxy(options: ClientOptions = {}): Promise<ZkClient> {
      const c = await open(this.proxy.connectString, options);
      clients.push(c);
      return c;
    },
  };
}

/**
 * Expires `zk`'s session deterministically: the client is cut off behind `proxy` while another connection takes
 * the session over (id + password) and closes it; then the client is let back in and hears the expiry.
 */
export async function expireBehindProxy(zk: ZkClient, proxy: FaultProxy, whileCut: () => Promise<void> = async () => undefined): Promise<void> {
  proxy.blackhole();
  const thief = createClient(sharedServer(), { sessionTimeout: 4000, sessionId: zk.sessionId, sessionPassword: zk.sessionPassword });
  await thief.connect();
  await thief.close();
  await whileCut();
  proxy.restore();
}
