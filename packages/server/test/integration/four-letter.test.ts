// The four-letter words side by side: ZooKeeper 3.8 and startServer with the same whitelist, the same
// sessions, nodes and watches; each word's answer compared after normalising what must differ (session ids,
// ports, times, version strings): the same lines, keys and values for what both servers count alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fourLetter, parseMntr, startZooKeeper, type ZooKeeperServer } from '@zkts/testkit';
import { createClient, type ZkClient } from '@zkts/protocol';
import { startServer, type ZkServer } from '@zkts/server';

const WORDS = ['ruok', 'srvr', 'stat', 'mntr', 'cons', 'wchc', 'wchp', 'wchs', 'dump', 'conf', 'envi', 'crst', 'srst'];

interface Side {
  ask(word: string): Promise<string>;
  client: ZkClient;
}

/** Session ids, ports, times and counters reduced to placeholders. */
function normalise(text: string): string {
  return text
    .replace(/0x[0-9a-f]{6,}/g, '0xSID')
    .replace(/\/127\.0\.0\.1:\d+/g, '/IP:PORT')
    .replace(/expire at [^:\n]+:\d\d:\d\d UTC \d+/g, 'expire at DATE')
    .replace(/Zookeeper version: .*/g, 'Zookeeper version: V');
}

/**
 * A dump's entries without its expiry buckets. Which bucket a session or connection falls in depends on when each
 * was last heard (to the tick), so two servers fed the same requests can group them into different buckets: the
 * comparison keeps every section, session, ephemeral and connection line, and drops only the grouping.
 */
function dumpEntries(text: string): string[] {
  return normalise(text)
    .split('\n')
    .filter((line) => !/^\d+ expire at DATE:?$/.test(line.trim()))
    .map((line) => line.replace(/^(.*Sets) \(\d+\)\/\((\d+)\)/, '$1 (B)/($2)').replace(/^Expiry Queue Size: \d+/, 'Expiry Queue Size: B'))
    .sort();
}

const keys = (text: string, sep: string): string[] => text.split('\n').filter((l) => l !== '').map((l) => l.split(sep)[0] ?? '');

describe('four-letter words, side by side with ZooKeeper', () => {
  let zookeeper: ZooKeeperServer;
  let ours: ZkServer;
  const sides: Side[] = [];

  beforeAll(async () => {
    [zookeeper, ours] = await Promise.all([
      startZooKeeper({ tickTime: 500, fourLetterWhitelist: WORDS.join(',') }),
      startServer({ tickTime: 500, fourLetterWords: WORDS }),
    ]);
    for (const s of [zookeeper, ours]) {
      const client = await createClient(s.connectString, { sessionTimeout: 4000 }).connect();
      await client.create('/a', 'x');
      await client.create('/a/e', 'yy', { mode: 'ephemeral' });
      await client.getData('/a', { watch: () => undefined });
      await client.exists('/b', { watch: () => undefined });
      sides.push({ client, ask: (w) => fourLetter({ host: '127.0.0.1', port: s.port }, w) });
    }
  }, 120_000);
  afterAll(async () => {
    for (const s of sides) await s.client.close();
    await Promise.all([zookeeper?.[Symbol.asyncDispose](), ours?.close()]);
  });

  const both = async (word: string): Promise<[string, string]> => {
    const [a, b] = sides as [Side, Side];
    return [await a.ask(word), await b.ask(word)];
  };

  it('ruok, wchc, wchp, wchs, and a word outside the whitelist: identical', async () => {
    for (const word of ['ruok', 'wchc', 'wchp', 'wchs', 'isro', 'dirs']) {
      const [theirs, mine] = await both(word);
      expect(normalise(mine), word).toBe(normalise(theirs));
    }
    expect((await both('isro'))[1]).toBe('isro is not executed because it is not in the whitelist.\n');
  });

  it('srvr and stat: the same lines; Mode, Zxid, Node count, Connections and Outstanding equal', async () => {
    for (const word of ['srvr', 'stat']) {
      const [theirs, mine] = await both(word);
      expect(keys(mine, ':'), word).toEqual(keys(theirs, ':'));
      const pick = (t: string): string[] => t.split('\n').filter((l) => /^(Mode|Zxid|Node count|Outstanding|Connections):/.test(l));
      expect(pick(mine), word).toEqual(pick(theirs));
      const clientLines = (t: string): string[] => t.split('\n').filter((l) => l.startsWith(' /')).map((l) => l.replace(/\d+/g, 'N')).sort();
      expect(clientLines(mine), word).toEqual(clientLines(theirs));
    }
  });

  it("mntr: our keys are ZooKeeper's standalone keys, and the tree's counts are equal", async () => {
    const [theirs, mine] = (await both('mntr')).map(parseMntr) as [Map<string, string>, Map<string, string>];
    for (const k of mine.keys()) expect(theirs.has(k), k).toBe(true);
    for (const k of ['zk_server_state', 'zk_znode_count', 'zk_ephemerals_count', 'zk_watch_count', 'zk_approximate_data_size',
      'zk_global_sessions', 'zk_num_alive_connections', 'zk_outstanding_requests', 'zk_local_sessions']) {
      expect(mine.get(k), k).toBe(theirs.get(k));
    }
    expect(mine.size).toBeGreaterThanOrEqual(20);
  });

  it('cons: one line per connection with the same fields; dump: the same sessions, ephemerals and connections', async () => {
    const [theirs, mine] = await both('cons');
    const shape = (t: string): string[] => t.split('\n').map((l) => l.replace(/=[^,)]*/g, '=').replace(/\/127\.0\.0\.1:\d+/g, '/IP:PORT')).sort();
    expect(shape(mine)).toEqual(shape(theirs));
    const [zkDump, ourDump] = await both('dump');
    expect(dumpEntries(ourDump)).toEqual(dumpEntries(zkDump));
  });

  it('conf and envi: the same keys where they mean the same thing', async () => {
    const [zkConf, ourConf] = await both('conf');
    expect(keys(ourConf, '=')).toEqual(keys(zkConf, '='));
    const tick = (t: string): string[] => t.split('\n').filter((l) => /^(tickTime|minSessionTimeout|maxSessionTimeout|serverId|secureClientPort)=/.test(l));
    expect(tick(ourConf)).toEqual(tick(zkConf));
    const [zkEnvi, ourEnvi] = await both('envi');
    expect(ourEnvi.split('\n')[0]).toBe(zkEnvi.split('\n')[0]);
    const zkKeys = new Set(keys(zkEnvi, '='));
    expect(keys(ourEnvi, '=').filter((k) => !zkKeys.has(k))).toEqual(['node.version']);
  });

  it('crst and srst: the same acknowledgements', async () => {
    for (const word of ['crst', 'srst']) {
      const [theirs, mine] = await both(word);
      expect(mine, word).toBe(theirs);
    }
  });
});
