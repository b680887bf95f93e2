/**
 * Java on the other side of the SASL interop tests: compiles java/SaslPeer.java (a ZooKeeper Java client that
 * authenticates from a JAAS file) and the JDK's DIGEST-MD5 vector program against Debian's jars, and runs them.
 * Missing Java or jars fail the test with what to install: interop tests must not silently skip.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const JARS = [
  'zookeeper', 'zookeeper-jute', 'slf4j-api', 'slf4j-nop', 'netty-handler', 'netty-transport', 'netty-common', 'netty-buffer',
  'netty-codec', 'netty-resolver', 'netty-transport-native-epoll', 'netty-transport-native-unix-common', 'commons-io', 'metrics-core',
].map((j) => `/usr/share/java/${j}.jar`);

export interface JavaPrograms {
  readonly dir: string;
  /** Runs SaslPeer with a JAAS file (its text) and extra -D properties; resolves with its exit code and output. */
  peer(jaas: string, connectString: string, steps: string[], properties?: Record<string, string>): Promise<{ code: number | null; out: string; err: string }>;
  /** Starts the JDK DIGEST-MD5 server in `stdin` mode (DigestMd5Vector.java): it prints a challenge, reads a response. */
  digestServer(user: string, password: string): ReturnType<typeof spawn>;
  dispose(): void;
}

/** Compiles both programs once (a test file's beforeAll). */
export function compileJavaPrograms(): JavaPrograms {
  const missing = JARS.filter((j) => !existsSync(j));
  if (missing.length > 0) throw new Error(`SASL interop needs Debian's ZooKeeper jars (scripts/setup.sh); missing: ${missing.join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'zkts-java-sasl-'));
  const sources = [
    fileURLToPath(new URL('./java/SaslPeer.java', import.meta.url)),
    fileURLToPath(new URL('../../packages/protocol/test/fixtures/DigestMd5Vector.java', import.meta.url)),
  ];
  const r = spawnSync('javac', ['-d', dir, '-cp', JARS.join(':'), ...sources], { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) throw new Error(`javac failed (a JDK is needed: default-jdk-headless): ${r.stderr ?? String(r.error)}`);
  const classpath = [dir, ...JARS].join(':');
  let files = 0;
  const fast = ['-Xss512k', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Dfile.encoding=UTF-8'];
  return {
    dir,
    peer(jaas, connectString, steps, properties = {}) {
      const jaasFile = join(dir, `jaas-${++files}.conf`);
      writeFileSync(jaasFile, jaas);
      const props = Object.entries({ 'java.security.auth.login.config': jaasFile, ...properties }).map(([k, v]) => `-D${k}=${v}`);
      const proc = spawn('java', [...fast, ...props, '-cp', classpath, 'SaslPeer', connectString, ...steps], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      proc.stdout.on('data', (b: Buffer) => (out += b.toString()));
      proc.stderr.on('data', (b: Buffer) => (err += b.toString()));
      return new Promise((resolve) => proc.on('close', (code) => resolve({ code, out, err })));
    },
    digestServer(user, password) {
      return spawn('java', [...fast, '-cp', classpath, 'DigestMd5Vector', user, password, 'stdin'], { stdio: ['pipe', 'pipe', 'pipe'] });
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
