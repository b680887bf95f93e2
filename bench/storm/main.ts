// The reconnect-storm row on its own (the harness runs it as workload `reconnectStorm`): compiles the zkts child
// with the bench's other children, runs, prints the table and the JSON. `--quick`: 100 sessions;
// `--clients zkts,java`; ZKTS_STORM_VARIANTS=min-max,… adds zkts variants (how the default was chosen).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { runStormBench } from './run.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, clients: { type: 'string' } } });
const benchDir = join(import.meta.dirname, '..');
const tsc = join(benchDir, '..', 'node_modules', 'typescript', 'bin', 'tsc');
const built = spawnSync(process.execPath, [tsc, '-p', join(benchDir, 'tsconfig.child.json')], { encoding: 'utf8' });
if (built.status !== 0) throw new Error(`tsc -p bench/tsconfig.child.json failed:\n${built.stdout}${built.stderr}`);
const result = await runStormBench({
  quick: values.quick,
  clients: values.clients?.split(','),
  zktsChild: join(benchDir, '.build', 'storm', 'zkts-child.js'),
  log: (s) => process.stderr.write(`${s}\n`),
});
process.stdout.write(`${result.text}\n${JSON.stringify(result, null, 2)}\n`);
