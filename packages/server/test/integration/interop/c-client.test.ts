// The C client's shell, cli_mt (Debian's zookeeper-bin), against startServer: commands typed one at a time,
// each answer read back from its output. The same session runs against ZooKeeper first, so the expected
// answers are ZooKeeper's.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { connect } from '@zkts/protocol';
import { startServer } from '@zkts/server';

import { killAll } from '../../../../recipes/test/support/foreign.js';
import { cliMt } from './processes.js';

afterEach(() => killAll());

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Runs the session under `c`; returns the ephemeral sequential node's name. */
async function cliSession(connectString: string, c: string): Promise<string> {
  const cli = cliMt(connectString);
  /** Types a command and returns what it printed from then up to `until`. */
  const type = async (command: string, until: string): Promise<string> => {
    const from = cli.output().length;
    cli.proc.stdin?.write(`${command}\n`);
    const m = await cli.line(new RegExp(`^[\\s\\S]{${from}}([\\s\\S]*?(?:${until}))`));
    return m[1] as string;
  };
  const C = esc(c);
  await cli.line(/state = CONNECTED_STATE/);
  expect(await type(`create ${c}`, 'name = \\S+')).toMatch(new RegExp(`\\[${C}\\]: rc = 0\\s+name = ${C}`));
  expect(await type(`set ${c} hello`, 'ephemeralOwner = \\d+')).toMatch(new RegExp(`${C}: rc = 0 Stat:[\\s\\S]*version=1`));
  expect(await type(`get ${c}`, 'ephemeralOwner = \\d+')).toMatch(new RegExp(`${C}: rc = 0\\s+value_len = 5\\s+hello\\s`));
  expect(await type(`create ${c}/k`, 'name = \\S+')).toMatch(new RegExp(`\\[${C}/k\\]: rc = 0\\s+name = ${C}/k`));
  expect(await type(`ls ${c}`, `${C}: rc = -?\\d+\\s+k\\n`)).toMatch(new RegExp(`${C}: rc = 0\\s+k\\s`));
  // ls left a child watch: the delete's answer and the watch event, in either order.
  const deleted = await type(`delete ${c}/k`, `CHILD_EVENT[^\\n]*${C}\\n[\\s\\S]*?${C}/k: rc = \\d+|${C}/k: rc = \\d+[\\s\\S]*?CHILD_EVENT[^\\n]*${C}\\n`);
  expect(deleted).toMatch(new RegExp(`${C}/k: rc = 0`));
  expect(await type(`exists ${c}/k`, `Error -101 for ${C}/k|rc = -?\\d+`)).toMatch(/-101/);
  const created = await type(`create +es ${c}/e-`, 'name = \\S+');
  const seq = new RegExp(`rc = 0\\s+name = (${C}/e-\\d{10})`).exec(created)?.[1];
  expect(seq, created).toBeDefined();
  const zk = await connect(connectString);
  try {
    const { stat } = await zk.getData(seq as string);
    expect(stat.ephemeralOwner).not.toBe(0n);
    expect(Buffer.from((await zk.getData(c)).data).toString()).toBe('hello');
    cli.proc.stdin?.write('quit\n');
    expect(await cli.exited).toBe(0);
    // The C client closed its session: its ephemeral is gone.
    expect(await zk.exists(seq as string)).toBeNull();
    return (seq as string).slice(c.length + 1);
  } finally {
    await zk.close();
  }
}

describe('the C client (cli_mt) on @zkts/server', () => {
  it('create, set, get, ls with a child watch, delete, exists, an ephemeral sequential node: as on ZooKeeper', async () => {
    const onZooKeeper = await cliSession(inject('zkConnectString'), `/interop-c-${randomBytes(6).toString('hex')}`);
    await using server = await startServer();
    expect(await cliSession(server.connectString, '/c')).toBe(onZooKeeper);
  }, 60_000);
});
