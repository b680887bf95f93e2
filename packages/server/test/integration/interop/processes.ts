// Foreign processes of the interop tests that recipes' test/support/foreign.ts does not start: this folder's
// Python and zkts scripts, and the C client's cli_mt. Started through its startForeign, so its killAll() ends
// them too.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { expect } from 'vitest';
import { connect, type ZkClient } from '@zkts/protocol';

import { startForeign, type ForeignProcess } from '../../../../recipes/test/support/foreign.js';

const here = (name: string): string => fileURLToPath(new URL(`./${name}`, import.meta.url));

/** This folder's kazoo_recipes.py in Debian's python3. */
export function kazooRecipe(...args: string[]): ForeignProcess {
  return startForeign('kazoo process', '/usr/bin/python3', [here('kazoo_recipes.py'), ...args]);
}

/** A zkts script of node/ in its own Node process, on the sources. */
export function zktsScript(script: string, ...args: string[]): ForeignProcess {
  return startForeign('zkts process', process.execPath, ['--conditions=zkts-source', '--import', 'tsx', here(`node/${script}`), ...args]);
}

/** Debian's zookeeper-bin puts the C client's shell outside PATH. */
export const CLI_MT = '/usr/lib/zookeeper/bin/cli_mt';

export function cliMt(connectString: string): ForeignProcess {
  if (!existsSync(CLI_MT)) throw new Error(`the C client test needs ${CLI_MT}: apt-get install zookeeper-bin (scripts/setup.sh)`);
  return startForeign('cli_mt', CLI_MT, [connectString], true);
}

/**
 * Two election processes that print `LEADER <id>` and leave on a line from stdin, `CLOSED <id>`: `a` leads (already
 * awaited by the caller), `b` waits behind it without leading; when `a` leaves, `b` leads (then `afterHandOff` runs
 * on a zkts client of the same server), leaves, and both exit 0.
 */
export async function expectHandOff(connectString: string, dir: string, a: ForeignProcess, b: ForeignProcess, afterHandOff?: (zk: ZkClient) => Promise<void>): Promise<void> {
  const zk = await connect(connectString);
  try {
    while ((await zk.getChildren(dir)).children.length < 2) await new Promise((r) => setTimeout(r, 50));
    expect(b.output()).not.toMatch(/LEADER/);
    a.proc.stdin?.write('\n');
    await a.line(/^CLOSED a$/m);
    await b.line(/^LEADER b$/m);
    await afterHandOff?.(zk);
    b.proc.stdin?.write('\n');
    await b.line(/^CLOSED b$/m);
    expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
  } finally {
    await zk.close();
  }
}
