import { authProperties } from './auth-config.js';
import { digestCredential } from './digest.js';

import type { ServerOptions } from './options.js';

/** One ensemble member as every member's zoo.cfg lists it. */
export interface QuorumPeer {
  id: number;
  host: string;
  quorumPort: number;
  electionPort: number;
  clientPort: number | undefined;
}

/** Everything needed to write one server's zoo.cfg and JVM command line. */
export interface ServerLayout {
  host: string;
  dataDir: string;
  clientPort: number | undefined;
  securePort: number | undefined;
  keyStore?: { keyStore: string; trustStore: string; password: string };
  quorum?: { peers: QuorumPeer[] };
  /** The server's JAAS file, written beside zoo.cfg when the options ask for SASL. */
  jaasFile?: string;
}

const NETTY_FACTORY = 'org.apache.zookeeper.server.NettyServerCnxnFactory';

/** The zoo.cfg text. Pure, so it is unit-tested. */
export function renderZooCfg(options: ServerOptions, layout: ServerLayout): string {
  const lines: [string, string | number | boolean][] = [
    ['tickTime', options.tickTime ?? 500],
    ['dataDir', layout.dataDir],
    ['4lw.commands.whitelist', options.fourLetterWhitelist ?? '*'],
    // The admin server (jetty) is slow to start and needs an extra port; tests use 4lw instead.
    ['admin.enableServer', false],
    // Tests open many sessions from one address.
    ['maxClientCnxns', 0],
  ];
  if (layout.clientPort !== undefined) {
    lines.push(['clientPort', layout.clientPort], ['clientPortAddress', layout.host]);
  }
  if (layout.securePort !== undefined) lines.push(['secureClientPort', layout.securePort]);
  if (layout.securePort !== undefined && layout.clientPort === undefined) {
    lines.push(['secureClientPortAddress', layout.host]);
  }
  if (options.minSessionTimeout !== undefined) lines.push(['minSessionTimeout', options.minSessionTimeout]);
  if (options.maxSessionTimeout !== undefined) lines.push(['maxSessionTimeout', options.maxSessionTimeout]);
  if (layout.quorum) {
    lines.push(['initLimit', 10], ['syncLimit', 5], ['standaloneEnabled', false], ['reconfigEnabled', options.reconfigEnabled ?? false]);
    // Without this a follower listens for quorum traffic on all interfaces; tests stay on loopback.
    lines.push(['quorumListenOnAllIPs', false]);
    if (options.readOnlyMode) {
      // A read-only server can only open local sessions (creating a global one is a write and is answered
      // NOTREADONLY); upgrading lets such a session create ephemerals once the quorum is back.
      lines.push(['localSessionsEnabled', true], ['localSessionsUpgradingEnabled', true]);
    }
    for (const peer of layout.quorum.peers) {
      const client = peer.clientPort === undefined ? '' : `;${peer.host}:${peer.clientPort}`;
      lines.push([`server.${peer.id}`, `${peer.host}:${peer.quorumPort}:${peer.electionPort}:participant${client}`]);
    }
  }
  for (const [key, value] of Object.entries(options.config ?? {})) lines.push([key, value]);
  return lines.map(([k, v]) => `${k}=${String(v)}`).join('\n') + '\n';
}

/** JVM system properties (`-D…`) derived from the options. Pure, so it is unit-tested. */
export function systemProperties(options: ServerOptions, layout: ServerLayout): Record<string, string> {
  const level = (options.logLevel ?? 'WARN').toLowerCase();
  const props: Record<string, string> = {
    // slf4j-simple (Debian classpath) and logback/log4j (Apache release) both honour one of these.
    'org.slf4j.simpleLogger.defaultLogLevel': level,
    'zookeeper.console.threshold': level.toUpperCase(),
    'zookeeper.root.logger': `${level.toUpperCase()},CONSOLE`,
    'zookeeper.jmx.log4j.disable': 'true',
    // The process dies, not the machine: page cache survives SIGKILL, so skipping fsync keeps data safe
    // for tests and makes writes fast.
    'zookeeper.forceSync': 'no',
    'java.net.preferIPv4Stack': 'true',
  };
  if (options.extendedTypesEnabled) props['zookeeper.extendedTypesEnabled'] = 'true';
  if (options.containerCheckIntervalMs !== undefined) {
    props['znode.container.checkIntervalMs'] = String(options.containerCheckIntervalMs);
  }
  if (options.readOnlyMode) props['readonlymode.enabled'] = 'true';
  if (layout.quorum) {
    // Elections in tests should take a second, not the production back-off of up to 60 s between rounds.
    props['zookeeper.fastleader.maxNotificationInterval'] = '2000';
    props['zookeeper.cnxTimeout'] = '2000';
  }
  if (options.superPassword !== undefined) {
    props['zookeeper.DigestAuthenticationProvider.superDigest'] = digestCredential('super', options.superPassword);
  }
  if (layout.securePort !== undefined && layout.keyStore) {
    props['zookeeper.serverCnxnFactory'] = NETTY_FACTORY;
    props['zookeeper.ssl.keyStore.location'] = layout.keyStore.keyStore;
    props['zookeeper.ssl.keyStore.password'] = layout.keyStore.password;
    props['zookeeper.ssl.keyStore.type'] = 'PKCS12';
    props['zookeeper.ssl.trustStore.location'] = layout.keyStore.trustStore;
    props['zookeeper.ssl.trustStore.password'] = layout.keyStore.password;
    props['zookeeper.ssl.trustStore.type'] = 'PKCS12';
    props['zookeeper.ssl.clientAuth'] = 'want';
    // The certificates name 127.0.0.1/localhost; clients connect by IP, so no reverse-DNS surprises.
    props['zookeeper.ssl.hostnameVerification'] = 'false';
  }
  Object.assign(props, authProperties(options, layout.jaasFile));
  for (const [key, value] of Object.entries(options.systemProperties ?? {})) props[key] = String(value);
  return props;
}

export function jvmArgs(options: ServerOptions, props: Record<string, string>): string[] {
  return [
    `-Xmx${options.heap ?? '256m'}`,
    // Two cores shared by many JVMs: a small serial GC and C1 only start in well under a second.
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-XX:-UsePerfData',
    '-Xss512k',
    ...Object.entries(props).map(([k, v]) => `-D${k}=${v}`),
    ...(options.jvmArgs ?? []),
  ];
}
