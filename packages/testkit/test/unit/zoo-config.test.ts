import { describe, expect, it } from 'vitest';

import { digestCredential } from '../../src/index.js';
import { jvmArgs, renderZooCfg, systemProperties } from '../../src/zoo-config.js';

import type { ServerLayout } from '../../src/zoo-config.js';

const standalone: ServerLayout = { host: '127.0.0.1', dataDir: '/tmp/d', clientPort: 2181, securePort: undefined };

function cfgMap(text: string): Map<string, string> {
  return new Map(text.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

describe('renderZooCfg', () => {
  it('writes a fast, permissive standalone config by default', () => {
    const cfg = cfgMap(renderZooCfg({}, standalone));
    expect(cfg.get('tickTime')).toBe('500');
    expect(cfg.get('clientPort')).toBe('2181');
    expect(cfg.get('clientPortAddress')).toBe('127.0.0.1');
    expect(cfg.get('4lw.commands.whitelist')).toBe('*');
    expect(cfg.get('admin.enableServer')).toBe('false');
    expect(cfg.has('server.1')).toBe(false);
  });

  it('passes session timeouts, a whitelist and extra keys', () => {
    const cfg = cfgMap(
      renderZooCfg({ tickTime: 200, minSessionTimeout: 1000, maxSessionTimeout: 60000, fourLetterWhitelist: 'srvr,ruok', config: { autopurge: 1 } }, standalone),
    );
    expect(cfg.get('tickTime')).toBe('200');
    expect(cfg.get('minSessionTimeout')).toBe('1000');
    expect(cfg.get('maxSessionTimeout')).toBe('60000');
    expect(cfg.get('4lw.commands.whitelist')).toBe('srvr,ruok');
    expect(cfg.get('autopurge')).toBe('1');
  });

  it('leaves out the plain port of a TLS-only server', () => {
    const cfg = cfgMap(renderZooCfg({ tls: true, clientPort: false }, { ...standalone, clientPort: undefined, securePort: 3000 }));
    expect(cfg.has('clientPort')).toBe(false);
    expect(cfg.get('secureClientPort')).toBe('3000');
    expect(cfg.get('secureClientPortAddress')).toBe('127.0.0.1');
  });

  it('lists every ensemble member with quorum, election and client ports', () => {
    const peers = [1, 2, 3].map((id) => ({ id, host: '127.0.0.1', quorumPort: 100 + id, electionPort: 200 + id, clientPort: 300 + id }));
    const cfg = cfgMap(renderZooCfg({}, { ...standalone, quorum: { peers } }));
    expect(cfg.get('server.2')).toBe('127.0.0.1:102:202:participant;127.0.0.1:302');
    expect(cfg.get('initLimit')).toBe('10');
    expect(cfg.get('syncLimit')).toBe('5');
    expect(cfg.has('localSessionsEnabled')).toBe(false);
  });

  it('enables local sessions for a read-only capable ensemble', () => {
    const peers = [{ id: 1, host: '127.0.0.1', quorumPort: 1, electionPort: 2, clientPort: 3 }];
    const cfg = cfgMap(renderZooCfg({ readOnlyMode: true }, { ...standalone, quorum: { peers } }));
    expect(cfg.get('localSessionsEnabled')).toBe('true');
    expect(cfg.get('localSessionsUpgradingEnabled')).toBe('true');
  });
});

describe('systemProperties / jvmArgs', () => {
  it('maps feature options to the server system properties', () => {
    const props = systemProperties(
      { extendedTypesEnabled: true, containerCheckIntervalMs: 100, readOnlyMode: true, superPassword: 'password' },
      standalone,
    );
    expect(props['zookeeper.extendedTypesEnabled']).toBe('true');
    expect(props['znode.container.checkIntervalMs']).toBe('100');
    expect(props['readonlymode.enabled']).toBe('true');
    // The value Java's DigestAuthenticationProvider prints for super:password.
    expect(props['zookeeper.DigestAuthenticationProvider.superDigest']).toBe('super:DyNYQEQvajljsxlhf5uS4PJ9R28=');
    expect(props['zookeeper.serverCnxnFactory']).toBeUndefined();
  });

  it('switches to Netty and the generated stores for TLS', () => {
    const props = systemProperties(
      { tls: true },
      { ...standalone, securePort: 3000, keyStore: { keyStore: '/k.p12', trustStore: '/t.p12', password: 'pw' } },
    );
    expect(props['zookeeper.serverCnxnFactory']).toBe('org.apache.zookeeper.server.NettyServerCnxnFactory');
    expect(props['zookeeper.ssl.keyStore.location']).toBe('/k.p12');
    expect(props['zookeeper.ssl.trustStore.location']).toBe('/t.p12');
    expect(props['zookeeper.ssl.trustStore.password']).toBe('pw');
  });

  it('starts a lean JVM', () => {
    const args = jvmArgs({}, { a: 'b' });
    expect(args).toContain('-Xmx256m');
    expect(args).toContain('-XX:+UseSerialGC');
    expect(args).toContain('-XX:TieredStopAtLevel=1');
    expect(args).toContain('-Da=b');
  });
});

describe('digestCredential', () => {
  it('is user:base64(sha1(user:password))', () => {
    expect(digestCredential('super', 'password')).toBe('super:DyNYQEQvajljsxlhf5uS4PJ9R28=');
  });
});
