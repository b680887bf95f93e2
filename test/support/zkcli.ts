/**
 * ZooKeeper's own command line (org.apache.zookeeper.ZooKeeperMain, "zkCli"), run from Debian's jars in its own
 * JVM: one command per process, as `zkCli.sh -server HOST CMD ARGS...` runs it. For the tests that check zkts
 * reads and writes what zkCli does (quotas). Missing Java or jars fail the test with what to install: interop
 * tests must not silently skip.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const JARS = [
  'zookeeper', 'zookeeper-jute', 'slf4j-api', 'slf4j-nop', 'netty-handler', 'netty-transport', 'netty-common', 'netty-buffer',
  'netty-codec', 'netty-resolver', 'netty-transport-native-epoll', 'netty-transport-native-unix-common', 'commons-cli', 'metrics-core',
].map((j) => `/usr/share/java/${j}.jar`);

export interface ZkCliResult {
  readonly code: number | null;
  /** What the command printed, without zkCli's connection banner and watcher lines. */
  readonly out: string;
  readonly err: string;
}

/** Throws with the packages to install unless Java and the jars are there. */
export function checkZkCli(): void {
  const missing = JARS.filter((j) => !existsSync(j));
  if (missing.length > 0) throw new Error(`zkCli interop needs Debian's ZooKeeper jars (scripts/setup.sh); missing: ${missing.join(', ')}`);
}

/** Lines zkCli prints around every command: the banner and the connection event. */
const NOISE = /^(Connecting to .*|WATCHER::|WatchedEvent state:SyncConnected type:None path:null|)$/;

/**
 * Runs one zkCli command against `server` (`-waitforconnection`, so the command runs once connected) and
 * resolves when the JVM exits; `timeout` ms kills it (a hang is a failure, not a wait).
 */
export function zkCli(server: string, args: readonly string[], timeout = 60_000): Promise<ZkCliResult> {
  checkZkCli();
  const fast = ['-Xss512k', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Dfile.encoding=UTF-8'];
  const proc = spawn('java', [...fast, '-cp', JARS.join(':'), 'org.apache.zookeeper.ZooKeeperMain', '-server', server, '-waitforconnection', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeout);
  return new Promise((resolve, reject) => {
    proc.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run java (a JDK or JRE is needed: default-jre-headless): ${e.message}`));
    });
    proc.on('close', (code) => {
      clearTimeout(timer);
      const clean = (text: string): string => text.split('\n').filter((l) => !NOISE.test(l.trim())).join('\n');
      resolve({ code, out: clean(out), err: clean(err) });
    });
  });
}
