// One benchmark run in its own process: `node --expose-gc --import tsx bench/harness/child.ts <client>
// <workload> <connectString> <base> <params-json> [<extras-json>]` (extras: the run's fixture path and, for
// watchReplay, the proxy's ports; for getSequentialInterleaved <client> is a comma-separated list and the JSON
// line carries `perClient` instead of `metrics`). Prints one JSON line `{"ok":true,"metrics":{…}}` (or
// `{"ok":false,"error":…}`) as its last line of stdout, so each client's CPU and heap figures are its own.
import { SERVER_WORKLOADS } from '../servers/workloads.js';
import type { ServerWorkloadName } from '../servers/workloads.js';
import { sequentialInterleaved } from './interleaved.js';
import type { BenchClient } from './session.js';
import { INTERLEAVED, WORKLOADS } from './workloads.js';
import type { WorkloadContext, WorkloadName, WorkloadParams } from './workloads.js';

const CLIENTS: Record<string, () => Promise<{ client: BenchClient }>> = {
  zkts: () => import('../clients/zkts.js'),
  nzk: () => import('../clients/nzk.js'),
  native: () => import('../clients/native.js'),
  raw: () => import('../clients/raw.js'),
};

async function main(): Promise<void> {
  const [clientId = '', workload = '', connectString = '', base = '', paramsJson = '{}', extrasJson = '{}'] = process.argv.slice(2);
  if (workload === INTERLEAVED) {
    // Several clients (`zkts,nzk,…`) in this one process; one metrics record per client.
    const clients: BenchClient[] = [];
    for (const id of clientId.split(',')) {
      const loadOne = CLIENTS[id];
      if (!loadOne) throw new Error(`unknown client ${id}`);
      clients.push((await loadOne()).client);
    }
    const perClient = await sequentialInterleaved(clients, connectString, base, JSON.parse(paramsJson) as WorkloadParams);
    process.stdout.write(`${JSON.stringify({ ok: true, perClient })}\n`);
    return;
  }
  const load = CLIENTS[clientId];
  if (!load) throw new Error(`unknown client ${clientId}`);
  // The server rows' own workloads (bench/servers/) run here too.
  const run = workload in WORKLOADS ? WORKLOADS[workload as WorkloadName] : SERVER_WORKLOADS[workload as ServerWorkloadName];
  if (run === undefined) throw new Error(`unknown workload ${workload}`);
  const { client } = await load();
  const params = JSON.parse(paramsJson) as WorkloadParams;
  const extras = JSON.parse(extrasJson) as Pick<WorkloadContext, 'fixture' | 'proxy'>;
  const metrics = await run({ client, connectString, base, params, fixture: extras.fixture, proxy: extras.proxy });
  process.stdout.write(`${JSON.stringify({ ok: true, metrics })}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stdout.write(`${JSON.stringify({ ok: false, error: message })}\n`);
    process.exit(1);
  },
);
