// The two servers of the server rows, each started fresh per pass and measured from the outside: @zkts/server in
// its own Node process (zkts-server.ts) and ZooKeeper with the bench's options (harness/server.ts). `heap()` is
// the server's heap in use after full GCs: Node's heapUsed + arrayBuffers, or the JVM's (jcmd GC.run, GC.heap_info).
import { execFile, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startBenchServer } from '../harness/server.js';

export type ServerId = 'zkts' | 'zookeeper';

export interface RunningServer {
  connectString: string;
  /** Only where the server can start inside a program: ms from startServer() to a client's first reply, in-process. */
  inProcessStartMs?: number;
  heap(): Promise<number>;
  stop(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const benchDir = join(here, '..');

function jcmd(pid: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('jcmd', [String(pid), ...args], { timeout: 60_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

/** `fromSource`: the server from src/ through tsx (as `--source`), else the compiled child on dist/. */
export async function startZktsServer(fromSource: boolean): Promise<RunningServer> {
  const entry = fromSource ? ['--conditions=zkts-source', '--import', 'tsx', join(here, 'zkts-server.ts')] : [join(benchDir, '.build', 'servers', 'zkts-server.js')];
  const child = spawn(process.execPath, ['--expose-gc', ...entry], { cwd: join(benchDir, '..'), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err = (err + c).slice(-2000)));
  const waitFor = async (re: RegExp, from: number): Promise<RegExpExecArray> => {
    for (;;) {
      const m = re.exec(out.slice(from));
      if (m) return m;
      if (child.exitCode !== null) throw new Error(`zkts server exited ${child.exitCode}: ${err}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  const started = await waitFor(/PORT (\d+) START ([\d.]+)\n/, 0);
  const port = Number(started[1]);
  return {
    connectString: `127.0.0.1:${port}`,
    inProcessStartMs: Number(started[2]),
    async heap() {
      const from = out.length;
      child.stdin.write('heap\n');
      return Number((await waitFor(/HEAP (\d+)\n/, from))[1]);
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.stdin.end();
      await exited;
    },
  };
}

export async function startZooKeeperServer(): Promise<RunningServer> {
  const server = await startBenchServer();
  const pid = (server as { pid?: number }).pid;
  return {
    connectString: server.connectString,
    async heap() {
      if (pid === undefined) throw new Error('no pid for the ZooKeeper JVM');
      // Two full collections: the first can leave garbage that finalization frees only for the second.
      await jcmd(pid, 'GC.run');
      await jcmd(pid, 'GC.run');
      const info = await jcmd(pid, 'GC.heap_info');
      // One line per generation (Serial, Parallel) or one for the whole heap (G1): "<name> total NK, used NK".
      const used = [...info.matchAll(/^\s*\S[^\n]*?\s+total \d+K, used (\d+)K/gm)].map((m) => Number(m[1]));
      if (used.length === 0) throw new Error(`cannot read GC.heap_info: ${info.slice(0, 200)}`);
      return used.reduce((a, b) => a + b, 0) * 1024;
    },
    stop: () => server.stop(),
  };
}
