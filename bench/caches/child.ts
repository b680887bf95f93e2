// zkts's side of the cache rows, one process per pass (`node --expose-gc bench/.build/caches/child.js <connect>
// <tree> <params-json>`): a warm-up load of a small tree, then the measured TreeCache load of the whole tree,
// the time from a setData by another session to the cache's event (after `warmEvents` unmeasured ones), and last
// the settled heap another cache of it adds per node (median of three).
// Prints one JSON line `{"ok":true,"metrics":{…}}` last.
import { performance } from 'node:perf_hooks';

import { connect } from '@zkts/protocol';
import { TreeCache } from '@zkts/recipes';

import { PAYLOAD, summarize, type CacheParams } from './params.js';

/** JS heap plus array buffers (the cached bytes live there): what the cache really costs. */
function settledHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

async function main(): Promise<void> {
  const [connectString = '', tree = '', paramsJson = '{}'] = process.argv.slice(2);
  const params = JSON.parse(paramsJson) as CacheParams;
  const client = await connect(connectString, { sessionTimeout: 30_000 });
  const remote = await connect(connectString, { sessionTimeout: 30_000 });
  try {
    // Warm-up: the same code paths on the small tree, so the JIT and the client's buffers are not charged.
    const warm = new TreeCache(client, `${tree}/warm`);
    await warm.start();
    await warm.close();

    const t0 = performance.now();
    const cache = new TreeCache(client, `${tree}/main`);
    await cache.start();
    const loadMs = performance.now() - t0;
    const nodes = cache.size;
    let waiting: { path: string; resolve: () => void } | undefined;
    cache.on((e) => {
      if (e.type === 'changed' && waiting !== undefined && e.path === waiting.path) waiting.resolve();
    });
    const leaves = params.leaves;
    const warmEvents = params.warmEvents;
    // Every round trip is timed, the warm-up's too, and only the last params.events are kept: a loop whose
    // measured part ran code the warm-up never did would be recompiled by V8 in the middle of the samples.
    const all = new Float64Array(warmEvents + params.events);
    for (let k = 0; k < all.length; k++) {
      const path = `${tree}/main/d${k % params.dirs}/n${(k * 7) % leaves}`;
      const seen = new Promise<void>((resolve) => (waiting = { path, resolve }));
      const t = performance.now();
      await remote.setData(path, PAYLOAD);
      await seen;
      all[k] = (performance.now() - t) * 1000;
    }
    const lat = all.subarray(warmEvents);
    await cache.close();
    // The heap a cache holds: another cache of the same tree, loaded once everything is warm (code compiled
    // during the timed load would otherwise count as cache memory), measured after full collections; the median
    // of three such loads (the JS heap moves by ±10 bytes a node between runs on its own). After the events, as
    // on every side: the full collections leave concurrent sweeping and marking behind, on threads that would
    // share the 2 cores with the server during the events.
    // Each in a function of its own: a closed cache left in this frame's variables would still be counted.
    const heapOfOne = async (): Promise<number> => {
      const heap0 = settledHeap();
      const other = new TreeCache(client, `${tree}/main`);
      await other.start();
      const perNode = (settledHeap() - heap0) / other.size;
      await other.close();
      return perNode;
    };
    const samples = [await heapOfOne(), await heapOfOne(), await heapOfOne()];
    const heapPerNode = samples.sort((a, b) => a - b)[1] as number;
    const metrics = { nodes, loadMs, heapPerNode, ...summarize(lat) };
    process.stdout.write(`${JSON.stringify({ ok: true, metrics })}\n`);
  } finally {
    await remote.close();
    await client.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stdout.write(`${JSON.stringify({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) })}\n`);
    process.exit(1);
  },
);
