// Foreign processes of the interop tests that recipes' test/support/foreign.ts does not start: this folder's
// Python and zkts scripts, and the C client's cli_mt. Same shape (ForeignProcess), and killAll() there ends
// these too, since they are registered with it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { ForeignProcess } from '../../../../recipes/test/support/foreign.js';

const mine: ForeignProcess[] = [];

/** Ends every process started here that is still running. */
export function killMine(): void {
  for (const p of mine.splice(0)) if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGKILL');
}

/** `merge`: stderr counts as output too (cli_mt prints its session events there, its answers on stdout). */
export function startProcess(what: string, command: string, args: readonly string[], merge = false): ForeignProcess {
  const proc = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr.on('data', (b: Buffer) => {
    if (merge) out += b.toString();
    else err += b.toString();
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const line = async (re: RegExp, timeout = 30_000): Promise<RegExpExecArray> => {
    const deadline = Date.now() + timeout;
    for (;;) {
      const m = re.exec(out);
      if (m) return m;
      if (proc.exitCode !== null || Date.now() > deadline) {
        throw new Error(`${what}: no ${re} (exit ${proc.exitCode}); stdout: ${out.slice(-2000)} stderr: ${err.slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const p: ForeignProcess = { proc, output: () => out, line, exited };
  mine.push(p);
  return p;
}

const here = (name: string): string => fileURLToPath(new URL(`./${name}`, import.meta.url));

/** This folder's kazoo_recipes.py in Debian's python3. */
export function kazooRecipe(...args: string[]): ForeignProcess {
  return startProcess('kazoo process', '/usr/bin/python3', [here('kazoo_recipes.py'), ...args]);
}

/** A zkts script of node/ in its own Node process, on the sources. */
export function zktsScript(script: string, ...args: string[]): ForeignProcess {
  return startProcess('zkts process', process.execPath, ['--conditions=zkts-source', '--import', 'tsx', here(`node/${script}`), ...args]);
}

/** Debian's zookeeper-bin puts the C client's shell outside PATH. */
export const CLI_MT = '/usr/lib/zookeeper/bin/cli_mt';

export function cliMt(connectString: string): ForeignProcess {
  if (!existsSync(CLI_MT)) throw new Error(`the C client test needs ${CLI_MT}: apt-get install zookeeper-bin (scripts/setup.sh)`);
  return startProcess('cli_mt', CLI_MT, [connectString], true);
}
