// Runs test/fixtures/orphan-owner.ts in its own Node process (the owner of one server) and reports what it
// started and how it ended: the hygiene tests check that nothing outlives the owner.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const fixture = fileURLToPath(new URL('../fixtures/orphan-owner.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

export interface Started {
  tag: string;
  /** Local backend: the JVM's pid and temp root. */
  pid?: number;
  root?: string;
  /** Container backend: the container's id. */
  id?: string;
}

export type Ending = 'exit' | 'throw' | 'signal' | 'sigkill';

export function runOwner(how: Ending, backend: 'local' | 'container' = 'local'): Promise<{ started: Started; code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsx, fixture, how, backend], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let started: Started | undefined;
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (!started && out.includes('\n')) {
        started = JSON.parse(out.slice(0, out.indexOf('\n'))) as Started;
        if (how === 'signal') child.kill('SIGTERM');
        if (how === 'sigkill') child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (!started) reject(new Error(`fixture printed nothing (code ${code}): ${err}`));
      else resolve({ started, code, signal });
    });
  });
}
