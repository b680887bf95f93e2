// The benchmark's raw-socket ceiling client (bench/clients/raw.ts) against the shared test server: it runs
// the two get workloads the table gives it, with the same harness code as `pnpm bench` (small counts), and it
// reports server errors instead of counting them as replies.
import { describe, expect, inject, it } from 'vitest';

import { client as raw } from '../bench/clients/raw.js';
import { call } from '../bench/harness/session.js';
import { WORKLOADS } from '../bench/harness/workloads.js';
import type { WorkloadParams } from '../bench/harness/workloads.js';

const PARAMS: WorkloadParams = {
  window: 100,
  getOps: 3_000,
  getWarmup: 300,
  seqOps: 200,
  seqWarmup: 20,
  createDeletePairs: 0,
  createDeleteWarmup: 0,
  watches: 0,
  lockCycles: 0,
  lockWarmup: 0,
  handoffs: 0,
  waiters: 0,
  waiterSessions: 0,
};

describe('bench: raw socket (ceiling)', () => {
  it('runs getPipelined and getSequential through the harness with figures', async () => {
    const connectString = inject('zkConnectString');
    const base = `/bench-raw-${Date.now().toString(36)}`;
    const pipelined = await WORKLOADS.getPipelined({ client: raw, connectString, base: `${base}-p`, params: PARAMS });
    expect(pipelined['ops']).toBe(3_000);
    expect(pipelined['opsPerSec']).toBeGreaterThan(0);
    expect(pipelined['cpuUsPerOp']).toBeGreaterThan(0);
    const sequential = await WORKLOADS.getSequential({ client: raw, connectString, base: `${base}-s`, params: PARAMS });
    expect(sequential['ops']).toBe(200);
    expect(sequential['p50Us']).toBeGreaterThan(0);
  });

  it('answers every request in order, and a missing node is an error, not a reply', async () => {
    const s = await raw.connect(inject('zkConnectString'));
    try {
      const path = `/bench-raw-order-${Date.now().toString(36)}`;
      await call((d) => s.create(path, new Uint8Array(100), d));
      const outcomes: string[] = [];
      await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          call((d) => s.getData(i % 100 === 99 ? `${path}-missing` : path, d)).then(
            () => outcomes.push(`ok ${i}`),
            (e: Error) => outcomes.push(`${e.message} ${i}`),
          ),
        ),
      );
      expect(outcomes).toEqual(Array.from({ length: 500 }, (_, i) => (i % 100 === 99 ? `server error -101 ${i}` : `ok ${i}`)));
    } finally {
      await s.close();
    }
  });
});
