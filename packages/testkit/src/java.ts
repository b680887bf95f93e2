import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

import { ZooKeeperNotInstalledError } from './errors.js';
import { checkObject, checkString } from './option-checks.js';

/** The Java found to run ZooKeeper. */
export interface JavaRuntime {
  java: string;
  classpath: string;
  /** Where the jars came from, for messages. */
  source: 'ZOOKEEPER_HOME' | 'debian';
}

const DEBIAN_DIR = '/usr/share/java';

// The smallest set of Debian jars ZooKeeperServerMain / QuorumPeerMain need (found by trial on 3.8.0):
// zookeeper.jar's manifest lists jetty/jackson too, but those only serve the admin server, which we disable.
export const DEBIAN_REQUIRED = [
  'zookeeper.jar',
  'zookeeper-jute.jar',
  'netty-handler.jar',
  'netty-buffer.jar',
  'netty-codec.jar',
  'netty-common.jar',
  'netty-resolver.jar',
  'netty-transport.jar',
  'netty-transport-native-epoll.jar',
  'netty-transport-native-unix-common.jar',
  'slf4j-api.jar',
  'metrics-core.jar',
  'snappy-java.jar',
  'commons-cli.jar',
  'commons-io.jar',
];
// Nice to have: a logging binding (else slf4j prints a NOP warning and the log file stays empty) and jline
// (only the interactive CLI uses it).
export const DEBIAN_OPTIONAL = ['slf4j-simple.jar', 'jline.jar'];

const INSTALL_HINT =
  'Install Java and ZooKeeper (Debian/Ubuntu: `sudo apt-get install default-jre-headless zookeeper`, ' +
  'or run `bash scripts/setup.sh`), or set ZOOKEEPER_HOME to an unpacked Apache ZooKeeper release ' +
  '(its lib/*.jar are used) and put `java` on PATH or set JAVA_HOME.';

function findJava(env: NodeJS.ProcessEnv): string | undefined {
  const candidates: string[] = [];
  if (env['JAVA_HOME']) candidates.push(join(env['JAVA_HOME'], 'bin', 'java'));
  for (const dir of (env['PATH'] ?? '').split(delimiter)) if (dir) candidates.push(join(dir, 'java'));
  // Only without a PATH at all (a bare spawn environment) guess Debian's location.
  if (env['PATH'] === undefined) candidates.push('/usr/bin/java');
  return candidates.find((c) => existsSync(c));
}

function homeClasspath(home: string): string | undefined {
  const lib = join(home, 'lib');
  if (!existsSync(lib)) return undefined;
  const jars = readdirSync(lib)
    .filter((f) => f.endsWith('.jar'))
    .map((f) => join(lib, f));
  // The release's conf/ holds logback.xml / log4j.properties; putting it first keeps its logging set-up.
  const conf = join(home, 'conf');
  if (!jars.some((j) => /zookeeper-\d.*\.jar$/.test(j) && !j.includes('jute'))) return undefined;
  return [conf, ...jars].join(delimiter);
}

function debianClasspath(dir: string): string | undefined {
  const missing = DEBIAN_REQUIRED.filter((j) => !existsSync(join(dir, j)));
  if (missing.length > 0) return undefined;
  const optional = DEBIAN_OPTIONAL.filter((j) => existsSync(join(dir, j)));
  return [...DEBIAN_REQUIRED, ...optional].map((j) => join(dir, j)).join(delimiter);
}

/** Locates java and the ZooKeeper classpath, or returns why not (no throw, for `backend: 'auto'`). */
export function probeJavaRuntime(env: NodeJS.ProcessEnv = process.env, debianDir = DEBIAN_DIR): JavaRuntime | string {
  checkObject('probeJavaRuntime', 'env', env, false);
  checkString('probeJavaRuntime', 'debianDir', debianDir, { optional: false });
  const java = findJava(env);
  if (!java) return `java was not found (JAVA_HOME, PATH, /usr/bin/java). ${INSTALL_HINT}`;
  const home = env['ZOOKEEPER_HOME'];
  if (home) {
    const classpath = homeClasspath(home);
    if (!classpath) return `ZOOKEEPER_HOME=${home} has no lib/zookeeper-*.jar. ${INSTALL_HINT}`;
    return { java, classpath, source: 'ZOOKEEPER_HOME' };
  }
  const classpath = debianClasspath(debianDir);
  if (!classpath) {
    const missing = DEBIAN_REQUIRED.filter((j) => !existsSync(join(debianDir, j)));
    return `ZooKeeper's jars are missing from ${debianDir} (${missing.join(', ')}). ${INSTALL_HINT}`;
  }
  return { java, classpath, source: 'debian' };
}

let cached: JavaRuntime | undefined;

/** Like {@link probeJavaRuntime} but throws one clear {@link ZooKeeperNotInstalledError}. */
export function javaRuntime(): JavaRuntime {
  if (cached) return cached;
  const probe = probeJavaRuntime();
  if (typeof probe === 'string') throw new ZooKeeperNotInstalledError(probe);
  cached = probe;
  return probe;
}
