// Demo worker processes as seen from the demo: fork, collect their messages, wait for one of a kind.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { WorkerMessage } from './messages.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');

export class Worker {
  readonly messages: WorkerMessage[] = [];
  readonly exited: Promise<number | null>;
  #listeners = new Set<(m: WorkerMessage) => void>();
  #alive = true;

  private constructor(
    readonly name: string,
    readonly proc: ChildProcess,
    onMessage: (w: Worker, m: WorkerMessage) => void,
  ) {
    proc.on('message', (raw) => {
      const m = raw as WorkerMessage;
      this.messages.push(m);
      onMessage(this, m);
      for (const l of this.#listeners) l(m);
    });
    this.exited = new Promise((resolve) =>
      proc.on('exit', (code) => {
        this.#alive = false;
        resolve(code);
      }),
    );
  }

  /** Starts `worker.ts <role> <connectString> <root> <name> <arg>` in its own Node process (tsx, zkts sources). */
  static start(
    role: string,
    name: string,
    arg: number,
    connectString: string,
    root: string,
    onMessage: (w: Worker, m: WorkerMessage) => void,
  ): Worker {
    const proc = fork(join(here, 'worker.ts'), [role, connectString, root, name, String(arg)], {
      cwd: repoRoot,
      execArgv: ['--conditions=zkts-source', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Worker(name, proc, onMessage);
  }

  get alive(): boolean {
    return this.#alive;
  }

  /** Resolves with the first message of `kind` (already received or still to come). */
  waitFor<K extends WorkerMessage['kind']>(kind: K, timeoutMs = 30_000, match?: (m: Extract<WorkerMessage, { kind: K }>) => boolean): Promise<Extract<WorkerMessage, { kind: K }>> {
    const test = (m: WorkerMessage): m is Extract<WorkerMessage, { kind: K }> =>
      m.kind === kind && (!match || match(m as Extract<WorkerMessage, { kind: K }>));
    const seen = this.messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#listeners.delete(listener);
        reject(new Error(`${this.name}: no '${kind}' within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (m: WorkerMessage): void => {
        if (m.kind === 'failed') {
          clearTimeout(timer);
          this.#listeners.delete(listener);
          reject(new Error(`${this.name} failed: ${m.error}`));
        } else if (test(m)) {
          clearTimeout(timer);
          this.#listeners.delete(listener);
          resolve(m);
        }
      };
      this.#listeners.add(listener);
    });
  }

  go(): void {
    this.proc.send('go');
  }

  kill(signal: NodeJS.Signals): void {
    if (this.#alive) this.proc.kill(signal);
  }
}
