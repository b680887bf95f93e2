/**
 * The console's data sources against real ZooKeeper 3.8 servers: sessions, watches and ephemerals from the
 * four-letter words (and what a server that whitelists only `srvr` leaves of them), mntr sampled over time,
 * a zkts client's getData calls seen through the embedded proxy, and "who deleted my node?" from the server's
 * own transaction logs, paged newest first.
 */
import { connect } from 'node:net';

import { createClient } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { startZooKeeper } from '@zkts/testkit';
import type { ZooKeeperServer } from '@zkts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { filesInDirectory } from '../../src/persistence/files.js';
import { createSources, FourLetterSource, HistorySource, TrafficSource } from '../../src/console/sources/index.js';
import type { StatsReport } from '../../src/stats/index.js';
import { until } from '../support/wait.js';

let server: ZooKeeperServer;
let limited: ZooKeeperServer;
const clients: ZkClient[] = [];
const hex = (v: bigint): string => `0x${v.toString(16)}`;

async function client(connectString: string, sessionTimeout = 10_000): Promise<ZkClient> {
  const c = await createClient(connectString, { sessionTimeout }).connect();
  clients.push(c);
  return c;
}

beforeAll(async () => {
  // Our own servers: exact session and watch counts, and a dataDir to read. snapCount 10 rolls the log every
  // 5-10 transactions, so the history spans several log files.
  [server, limited] = await Promise.all([
    startZooKeeper({ fourLetterWhitelist: '*', tickTime: 500, minSessionTimeout: 1000, maxSessionTimeout: 60_000, systemProperties: { 'zookeeper.snapCount': 10 } }),
    startZooKeeper({ fourLetterWhitelist: 'srvr' }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all([server?.[Symbol.asyncDispose](), limited?.[Symbol.asyncDispose]()]);
});

describe('console sources against real ZooKeeper', () => {
  it('sessions(): each client with its address, timeout, ephemerals and watches; hot paths by watcher count', async () => {
    const a = await client(server.connectString, 10_000);
    const b = await client(server.connectString, 20_000);
    await a.create('/s', null);
    await a.create('/s/config', Buffer.from('v1'));
    const { path: member } = await a.create('/s/member-', null, { mode: 'ephemeral-sequential' });
    await b.create('/s/lock', null, { mode: 'ephemeral' });
    await a.getData('/s/config', { watch: true });
    await b.getData('/s/config', { watch: true });
    await b.exists('/s/lock', { watch: true });
    await a.exists('/s/missing', { watch: true });

    const source = new FourLetterSource([{ host: server.host, port: server.port }]);
    const info = await source.sessions();
    expect(info.words.map((w) => [w.word, w.available])).toEqual([['cons', true], ['wchc', true], ['wchp', true], ['dump', true]]);
    const byId = new Map(info.sessions.map((s) => [s.id, s]));
    expect(byId.size).toBe(2);
    const sa = byId.get(hex(a.sessionId));
    const sb = byId.get(hex(b.sessionId));
    expect(sa).toMatchObject({ timeoutMs: a.negotiatedTimeout, ephemerals: [member], lastOp: expect.any(String) });
    expect(sa?.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(sa?.received).toBeGreaterThanOrEqual(6);
    expect([...(sa?.watches ?? [])].sort()).toEqual(['/s/config', '/s/missing']);
    expect(sb).toMatchObject({ timeoutMs: b.negotiatedTimeout, ephemerals: ['/s/lock'] });
    expect([...(sb?.watches ?? [])].sort()).toEqual(['/s/config', '/s/lock']);
    expect(info.hotPaths[0]).toEqual({ path: '/s/config', watchers: 2 });
    expect(info.hotPaths.slice(1).map((p) => p.watchers)).toEqual([1, 1]);

    // A fired watch is gone from the lists.
    await a.setData('/s/config', Buffer.from('v2'));
    await until(async () => (await source.sessions()).hotPaths.every((p) => p.path !== '/s/config'), 'the fired watch leaves wchp');
  });

  it('@zkts/server (embedded) answers in the same formats: the same sessions, ephemerals and watches', async () => {
    const embedded = await startZooKeeper({ backend: 'embedded', fourLetterWhitelist: 'cons,wchc,dump,srvr' });
    try {
      const a = await client(embedded.connectString, 8000);
      await a.create('/e', null, { mode: 'ephemeral' });
      await a.exists('/e', { watch: true });
      const info = await new FourLetterSource([{ host: embedded.host, port: embedded.port }]).sessions();
      expect(info.words.find((w) => w.word === 'wchp')).toEqual({ word: 'wchp', available: false, reason: 'wchp is not executed because it is not in the whitelist.' });
      expect(info.sessions).toEqual([
        { id: hex(a.sessionId), address: expect.stringMatching(/^127\.0\.0\.1:\d+$/), timeoutMs: a.negotiatedTimeout, ephemerals: ['/e'], watches: ['/e'], received: expect.any(Number), sent: expect.any(Number), lastOp: expect.any(String) },
      ]);
      // Without wchp, hot paths come from wchc.
      expect(info.hotPaths).toEqual([{ path: '/e', watchers: 1 }]);
      await a.close();
    } finally {
      await embedded[Symbol.asyncDispose]();
    }
  });

  it('a server that whitelists only srvr: every word unavailable with ZooKeeper\'s reason, mntr too', async () => {
    const source = new FourLetterSource([{ host: limited.host, port: limited.port }]);
    const info = await source.sessions();
    expect(info.words).toEqual(['cons', 'wchc', 'wchp', 'dump'].map((word) => ({ word, available: false, reason: `${word} is not executed because it is not in the whitelist.` })));
    expect(info.sessions).toEqual([]);
    expect(info.hotPaths).toEqual([]);
    await source.sample();
    expect(source.mntr()).toEqual({ available: false, reason: 'mntr is not executed because it is not in the whitelist.', samples: [] });
    source.close();
  });

  it('mntr sampled every 200 ms, numbers as numbers; an unreachable first host is skipped', async () => {
    const source = new FourLetterSource([{ host: '127.0.0.1', port: 1 }, { host: server.host, port: server.port }]);
    source.start(200);
    try {
      await until(() => source.mntr().samples.length >= 3, 'three mntr samples');
      const history = source.mntr();
      expect(history.available).toBe(true);
      const [first, , third] = history.samples;
      expect(third?.at).toBeGreaterThan(first?.at ?? Infinity);
      expect(first?.values['zk_server_state']).toBe('standalone');
      expect(typeof first?.values['zk_znode_count']).toBe('number');
    } finally {
      source.close();
    }
  });

  it('TrafficSource: N getData through the proxy show as N getData with latencies and a series point', async () => {
    const traffic = await TrafficSource.listen({ host: '127.0.0.1', port: 0 }, { host: server.host, port: server.port });
    try {
      expect(traffic.address).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(traffic.info().report).toBeNull();
      const setup = await client(server.connectString);
      await setup.create('/t', Buffer.from('payload'));
      const via = await client(traffic.address);
      const N = 25;
      for (let i = 0; i < N; i++) expect(Buffer.from((await via.getData('/t')).data ?? []).toString()).toBe('payload');
      await until(() => ((traffic.info().report as StatsReport | null)?.latency['getData']?.count ?? 0) >= N, 'N getData replies analysed');
      const info = traffic.info();
      const report = info.report as StatsReport;
      expect(info.listen).toBe(traffic.address);
      expect(report.latency['getData']).toMatchObject({ count: N });
      expect(report.latency['getData']?.p99).toBeGreaterThanOrEqual(report.latency['getData']?.p50 ?? Infinity);
      expect(report.totals.sessions).toBe(1);
      expect(report.sessions[0]?.session).toBe(hex(via.sessionId));
      const points = info.series['getData'] ?? [];
      expect(points.reduce((n, p) => n + p.requests, 0)).toBe(N);
      // Replies count in the second they arrive, which may be the one after their request's.
      expect(points.reduce((n, p) => n + p.replies, 0)).toBe(N);
      const answered = points.filter((p) => p.replies > 0);
      expect(answered.length).toBeGreaterThanOrEqual(1);
      expect(answered.every((p) => p.p50 !== null && p.p99 !== null && p.p99 >= p.p50)).toBe(true);
      expect(points.filter((p) => p.replies === 0).every((p) => p.p50 === null && p.p99 === null)).toBe(true);

      // Garbage through the same proxy: forwarded (the server drops it), one decode error, nothing crashes.
      const raw = connect({ host: '127.0.0.1', port: Number(traffic.address.split(':')[1]) });
      raw.on('error', () => undefined);
      raw.write(Buffer.from([0x7f, 0xff, 0xff, 0xff, 1, 2, 3]));
      await until(() => ((traffic.info().report as StatsReport).totals.decodeErrors ?? 0) >= 1, 'the decode error counted');
      raw.destroy();
      expect(traffic.tapErrors).toBe(0);
      expect((await via.getData('/t')).stat.dataLength).toBe(7);
    } finally {
      await traffic.close();
    }
    expect(traffic.connections).toBe(0);
  });

  it('HistorySource: who deleted my node, newest first, paged with before', async () => {
    const writer = await client(server.connectString);
    const deleter = await client(server.connectString);
    await writer.create('/h', null);
    await writer.create('/h/node', Buffer.from('0'));
    for (let i = 1; i <= 3; i++) await writer.setData('/h/node', Buffer.from(String(i)));
    await writer.create('/h/other', null);
    await deleter.delete('/h/node');

    // The log rolled meanwhile: the pages below cross files.
    expect((await filesInDirectory(server.dataDir, 'log')).length).toBeGreaterThan(1);
    const history = new HistorySource(server.dataDir);
    const all = await history.page({ path: '/h/node' });
    expect(all.txns.map((t) => t.op)).toEqual(['delete', 'setData', 'setData', 'setData', 'create2']);
    expect(all.next).toBeNull();
    const [deleted] = all.txns;
    expect(deleted).toMatchObject({ op: 'delete', path: '/h/node', session: hex(deleter.sessionId), by: null });
    expect(all.txns.slice(1).every((t) => t.session === hex(writer.sessionId))).toBe(true);
    const zxids = all.txns.map((t) => BigInt(t.zxid));
    expect(zxids).toEqual([...zxids].sort((x, y) => (x > y ? -1 : 1)));
    expect(all.txns[1]?.fields).toContainEqual(['data', '"3"']);

    // The subtree: /h itself and /h/other too.
    expect((await history.page({ path: '/h' })).txns.map((t) => t.path)).toEqual(['/h/node', '/h/other', '/h/node', '/h/node', '/h/node', '/h/node', '/h']);
    // By session and op.
    expect((await history.page({ session: hex(deleter.sessionId) })).txns.map((t) => t.op)).toEqual(['delete', 'createSession']);
    expect((await history.page({ path: '/h', op: 'DELETE' })).txns.map((t) => t.zxid)).toEqual([deleted?.zxid]);

    // Paging: two at a time, each page older than the last, together the whole list.
    const pages: string[][] = [];
    let before: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await history.page({ path: '/h/node', limit: 2, ...(before === undefined ? {} : { before }) });
      pages.push(page.txns.map((t) => t.zxid));
      if (page.next === null) break;
      before = page.next;
    }
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all.txns.map((t) => t.zxid));

    await expect(history.page({ session: 'nope' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(new HistorySource('/nonexistent-dir').page()).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('createSources: every source from the options, closed together', async () => {
    const sources = await createSources({
      hosts: [{ host: server.host, port: server.port }],
      proxy: { listen: { host: '127.0.0.1', port: 0 }, upstream: { host: server.host, port: server.port } },
      dataDir: server.dataDir,
      mntrEveryMs: 100,
    });
    try {
      const via = await client(sources.traffic?.address ?? '');
      await via.exists('/');
      await until(() => sources.fourLetter.mntr().samples.length > 0, 'a mntr sample');
      expect((await sources.history?.page({ limit: 1 }))?.txns).toHaveLength(1);
    } finally {
      await sources.close();
    }
    expect(sources.traffic?.connections).toBe(0);
    const bare = await createSources({ hosts: [{ host: server.host, port: server.port }], mntrEveryMs: 0 });
    expect([bare.traffic, bare.history]).toEqual([undefined, undefined]);
    await bare.close();
  });
});
