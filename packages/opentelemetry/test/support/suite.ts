/**
 * The set-up every real-server OpenTelemetry test file shares: its own root node (made before, removed after),
 * its clients closed after each test, and an instrumentation started by the test itself (after its own set-up,
 * so only what the test does is seen) and stopped after it.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';

import { startOtel, useContextManager, type Otel } from './otel.js';
import { Clients, uniqueRoot } from './server.js';

export interface OtelSuite {
  readonly root: string;
  readonly clients: Clients;
  /** Instruments from now on. */
  instrument(): Otel;
}

export function otelSuite(prefix: string): OtelSuite {
  const root = uniqueRoot(prefix);
  const clients = new Clients();
  let otel: Otel | undefined;
  beforeAll(async () => {
    useContextManager();
    const zk = await clients.connect();
    await zk.create(root);
    await clients.closeAll();
  });
  afterEach(async () => {
    await otel?.close();
    otel = undefined;
    await clients.closeAll();
  });
  afterAll(async () => {
    const zk = await clients.connect();
    await zk.removeRecursive(root);
    await clients.closeAll();
  });
  return {
    root,
    clients,
    instrument: () => (otel = startOtel()),
  };
}
