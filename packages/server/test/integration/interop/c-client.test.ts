// The C client's shell, cli_mt (Debian's zookeeper-bin), against startServer: commands typed one at a time,
// each answer read back from its output.
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '@zkts/protocol';
import { startServer } from '@zkts/server';

import { cliMt, killMine } from './processes.js';

afterEach(() => killMine());

describe('the C client (cli_mt) on @zkts/server', () => {
  it('create, set, get, ls with a child watch, delete, exists, an ephemeral sequential node', async () => {
    await using server = await startServer();
    const cli = cliMt(server.connectString);
    /** Types a command and returns what it printed from then up to `until`. */
    const type = async (command: string, until: RegExp): Promise<string> => {
      const from = cli.output().length;
      cli.proc.stdin?.write(`${command}\n`);
      const m = await cli.line(new RegExp(`^[\\s\\S]{${from}}([\\s\\S]*?(?:${until.source}))`));
      return m[1] as string;
    };
    await cli.line(/state = CONNECTED_STATE/);
    expect(await type('create /c', /rc = \d+[\s\S]*?name = \S+/)).toMatch(/\[\/c\]: rc = 0\s+name = \/c/);
    expect(await type('set /c hello', /ephemeralOwner = \d+/)).toMatch(/\/c: rc = 0 Stat:[\s\S]*version=1/);
    const got = await type('get /c', /ephemeralOwner = \d+/);
    expect(got).toMatch(/\/c: rc = 0\s+value_len = 5\s+hello\s/);
    expect(await type('create /c/k', /name = \S+/)).toMatch(/\[\/c\/k\]: rc = 0\s+name = \/c\/k/);
    expect(await type('ls /c', /\/c: rc = -?\d+\s+k\n/)).toMatch(/\/c: rc = 0\s+k\s/);
    const deleted = await type('delete /c/k', /Watcher CHILD_EVENT[^\n]*\/c\n[\s\S]*?\/c\/k: rc = \d+|\/c\/k: rc = \d+[\s\S]*?Watcher CHILD_EVENT[^\n]*\/c\n/);
    expect(deleted).toMatch(/\/c\/k: rc = 0/);
    expect(await type('exists /c/k', /Error -101 for \/c\/k|rc = -?\d+/)).toMatch(/-101/);
    expect(await type('create +es /c/e-', /name = \S+/)).toMatch(/rc = 0\s+name = \/c\/e-0000000001/);
    const zk = await connect(server.connectString);
    try {
      const { stat } = await zk.getData('/c/e-0000000001');
      expect(stat.ephemeralOwner).not.toBe(0n);
      expect(Buffer.from((await zk.getData('/c')).data).toString()).toBe('hello');
      cli.proc.stdin?.write('quit\n');
      expect(await cli.exited).toBe(0);
      // The C client closed its session: its ephemeral is gone.
      expect(await zk.exists('/c/e-0000000001')).toBeNull();
    } finally {
      await zk.close();
    }
  }, 60_000);
});
