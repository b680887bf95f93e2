// Foreign processes of the interop tests that recipes' test/support/foreign.ts does not start: this folder's
// Python and zkts scripts, and the C client's cli_mt. Started through its startForeign, so its killAll() ends
// them too.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
