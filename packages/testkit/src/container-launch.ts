/**
 * What goes into a ZooKeeper container before it starts, as pure functions (unit-tested): the testkit drives
 * every image the same way, whatever its entrypoint — its own zoo.cfg (the same renderer as the local
 * backend), the myid, TLS stores, and a small sh launcher that finds java and the server's jars in the image
 * (an Apache release under /apache-zookeeper-*-bin/lib as in the official `zookeeper` images, or Debian's
 * /usr/share/java) and execs the main class. Also a minimal tar writer: Docker takes files as a tar stream.
 */
import { DEBIAN_OPTIONAL, DEBIAN_REQUIRED } from './java.js';
import { jvmArgs, renderZooCfg, systemProperties } from './zoo-config.js';

import type { ServerOptions } from './options.js';
import type { QuorumPeer, ServerLayout } from './zoo-config.js';

/** Everything the testkit writes lives here inside the container (the image's own files are left alone). */
export const CONTAINER_ROOT = '/zkts';
export const CONTAINER_CLIENT_PORT = 2181;
export const CONTAINER_SECURE_PORT = 2281;
export const CONTAINER_QUORUM_PORT = 2888;
export const CONTAINER_ELECTION_PORT = 3888;

export const STANDALONE_MAIN = 'org.apache.zookeeper.server.ZooKeeperServerMain';
export const QUORUM_MAIN = 'org.apache.zookeeper.server.quorum.QuorumPeerMain';

/** Where an Apache release keeps its lib/ in the images we know of; $ZOOKEEPER_HOME first when the image sets it. */
const RELEASE_HOMES = ['"${ZOOKEEPER_HOME:-/nonexistent}"', '/apache-zookeeper-*-bin', '/opt/zookeeper', '/opt/apache-zookeeper-*', '/zookeeper'];
const DEBIAN_JARS = '/usr/share/java';

export interface ContainerFile {
  /** Absolute path inside the container. */
  path: string;
  content: string | Buffer;
  mode?: number;
}

/** A PKCS12 key store and trust store (bytes) and their password, as generated for the local backend. */
export interface ContainerTls {
  keyStore: Buffer;
  trustStore: Buffer;
  password: string;
}

/** POSIX sh single-quoting. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The launcher: `java` from $JAVA_HOME or PATH; the classpath from the first Apache release found (its
 * conf/ dirs first, for logback.xml / log4j.properties, then every lib/*.jar), else Debian's jars (the same
 * list the local backend uses); then exec, so the JVM is PID 1 and gets docker stop's SIGTERM itself.
 */
export function launcherScript(main: string, jvm: readonly string[], config: string): string {
  const debianRequired = DEBIAN_REQUIRED.map((j) => `${DEBIAN_JARS}/${j}`).join(' ');
  const debianOptional = DEBIAN_OPTIONAL.map((j) => `${DEBIAN_JARS}/${j}`).join(' ');
  return [
    '#!/bin/sh',
    '# Written by @zkts/testkit (container backend): find java and ZooKeeper in this image, run the server.',
    'set -e',
    'JAVA=java',
    'if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then JAVA="$JAVA_HOME/bin/java"; fi',
    'CP=',
    `for home in ${RELEASE_HOMES.join(' ')}; do`,
    '  for jar in "$home"/lib/zookeeper-[0-9]*.jar; do',
    '    [ -f "$jar" ] || continue',
    '    for conf in /conf "$home/conf"; do [ -d "$conf" ] && CP="$CP:$conf"; done',
    '    for lib in "$home"/lib/*.jar; do CP="$CP:$lib"; done',
    '    break 2',
    '  done',
    'done',
    'if [ -z "$CP" ]; then',
    `  for jar in ${debianRequired}; do`,
    '    if [ ! -f "$jar" ]; then',
    `      echo "zkts: no ZooKeeper jars in this image (no lib/zookeeper-*.jar under ${RELEASE_HOMES.slice(1).join(', ')} or \\$ZOOKEEPER_HOME; $jar is missing)" >&2`,
    '      exit 127',
    '    fi',
    '    CP="$CP:$jar"',
    '  done',
    `  for jar in ${debianOptional}; do [ -f "$jar" ] && CP="$CP:$jar"; done`,
    'fi',
    `exec "$JAVA" ${jvm.map(shellQuote).join(' ')} -cp "\${CP#:}" ${main} ${shellQuote(config)}`,
    '',
  ].join('\n');
}

export interface ContainerServerPlan {
  /** Set for an ensemble member: its id and every member (hosts are the members' addresses on their network). */
  quorum?: { myid: number; peers: QuorumPeer[] };
  plainPort: boolean;
  tls: ContainerTls | undefined;
}

/** The layout the shared zoo.cfg / system-property renderers get for a server inside a container. */
export function containerLayout(plan: ContainerServerPlan): ServerLayout {
  const layout: ServerLayout = {
    // The client port is reached through Docker's port mapping, which arrives on the container's interface.
    host: '0.0.0.0',
    dataDir: `${CONTAINER_ROOT}/data`,
    clientPort: plan.plainPort ? CONTAINER_CLIENT_PORT : undefined,
    securePort: plan.tls ? CONTAINER_SECURE_PORT : undefined,
  };
  if (plan.tls) {
    layout.keyStore = {
      keyStore: `${CONTAINER_ROOT}/tls/keystore.p12`,
      trustStore: `${CONTAINER_ROOT}/tls/truststore.p12`,
      password: plan.tls.password,
    };
  }
  if (plan.quorum) layout.quorum = { peers: plan.quorum.peers };
  return layout;
}

/** Every file one server's container needs: launcher, zoo.cfg, myid (members), TLS stores (when asked). */
export function containerFiles(options: ServerOptions, plan: ContainerServerPlan): ContainerFile[] {
  const layout = containerLayout(plan);
  const config = `${CONTAINER_ROOT}/zoo.cfg`;
  const jvm = jvmArgs(options, systemProperties(options, layout));
  const main = plan.quorum ? QUORUM_MAIN : STANDALONE_MAIN;
  const files: ContainerFile[] = [
    { path: `${CONTAINER_ROOT}/run.sh`, content: launcherScript(main, jvm, config), mode: 0o755 },
    { path: config, content: renderZooCfg(options, layout) },
  ];
  if (plan.quorum) files.push({ path: `${layout.dataDir}/myid`, content: `${plan.quorum.myid}\n` });
  if (plan.tls && layout.keyStore) {
    files.push({ path: layout.keyStore.keyStore, content: plan.tls.keyStore, mode: 0o600 });
    files.push({ path: layout.keyStore.trustStore, content: plan.tls.trustStore, mode: 0o600 });
  }
  return files;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function tarHeader(name: string, size: number, mode: number, type: '0' | '5'): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar path too long: ${name}`);
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write(octal(mode, 8), 100, 'ascii');
  header.write(octal(0, 8), 108, 'ascii');
  header.write(octal(0, 8), 116, 'ascii');
  header.write(octal(size, 12), 124, 'ascii');
  header.write(octal(Math.floor(Date.now() / 1000), 12), 136, 'ascii');
  header.write('        ', 148, 'ascii');
  header.write(type, 156, 'ascii');
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(octal(sum, 7) + ' ', 148, 'ascii');
  return header;
}

/** A ustar archive of `files` (and their parent directories), paths relative to `/`, owned by root. */
export function tarArchive(files: readonly ContainerFile[]): Buffer {
  const parts: Buffer[] = [];
  const dirs = new Set<string>();
  for (const file of files) {
    const segments = file.path.replace(/^\/+/, '').split('/');
    for (let i = 1; i < segments.length; i++) {
      const dir = `${segments.slice(0, i).join('/')}/`;
      if (dirs.has(dir)) continue;
      dirs.add(dir);
      parts.push(tarHeader(dir, 0, 0o755, '5'));
    }
    const body = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content;
    parts.push(tarHeader(segments.join('/'), body.length, file.mode ?? 0o644, '0'), body);
    const pad = (512 - (body.length % 512)) % 512;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** Docker's log stream without a TTY: frames of [stream, 0, 0, 0, size (BE u32)] + payload; returns the text. */
export function demuxDockerLog(raw: Buffer): string {
  const out: Buffer[] = [];
  let offset = 0;
  while (offset + 8 <= raw.length) {
    const type = raw[offset];
    const size = raw.readUInt32BE(offset + 4);
    if ((type !== 0 && type !== 1 && type !== 2) || raw[offset + 1] !== 0) return raw.toString('utf8');
    out.push(raw.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size;
  }
  return Buffer.concat(out).toString('utf8');
}
