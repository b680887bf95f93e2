// The JAAS text and JVM properties of SASL, enforce.auth and x509 servers (auth-config.ts): pure, so checked
// here; real servers started with them are in packages/protocol/test/integration/sasl-*.test.ts.
import { describe, expect, it } from 'vitest';

import { renderClientJaas, renderServerJaas } from '../../src/index.js';
import { authProperties } from '../../src/auth-config.js';
import { systemProperties } from '../../src/zoo-config.js';

const layout = { host: '127.0.0.1', dataDir: '/d', clientPort: 2181, securePort: undefined };

describe('JAAS files', () => {
  it('a DigestLoginModule Server section with one user_<name> per user, quotes escaped', () => {
    expect(renderServerJaas({ sasl: { digestUsers: { bob: 'b"ob\\pw', bjørn: 'x' } } })).toBe(
      'Server {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n  user_bob="b\\"ob\\\\pw"\n  user_bjørn="x";\n};\n',
    );
    expect(renderServerJaas({})).toBeUndefined();
  });

  it('a Krb5LoginModule Server section from the keytab and principal', () => {
    const jaas = renderServerJaas({ sasl: { kerberos: { principal: 'zookeeper/localhost@R', keytab: '/k/zk.keytab', krb5Conf: '/k/krb5.conf' } } });
    expect(jaas).toContain('com.sun.security.auth.module.Krb5LoginModule required');
    expect(jaas).toContain('keyTab="/k/zk.keytab"');
    expect(jaas).toContain('principal="zookeeper/localhost@R";');
    expect(jaas).toContain('useKeyTab=true');
  });

  it('refuses what it cannot write or ZooKeeper cannot serve', () => {
    expect(() => renderServerJaas({ sasl: {} })).toThrow(/digestUsers or kerberos/);
    expect(() => renderServerJaas({ sasl: { digestUsers: { 'a b': 'x' } } })).toThrow(/cannot be written/);
    expect(() =>
      renderServerJaas({ sasl: { digestUsers: { a: 'x' }, kerberos: { principal: 'p/h@R', keytab: 'k', krb5Conf: 'c' } } }),
    ).toThrow(/exclude each other/);
  });

  it('Client sections for Java clients', () => {
    expect(renderClientJaas({ username: 'bob', password: 'pw' })).toContain('username="bob"\n  password="pw";');
    expect(renderClientJaas({ principal: 'alice@R', keytab: '/a.keytab' })).toContain('principal="alice@R";');
  });
});

describe('JVM properties', () => {
  it('SASL: the JAAS file, the sasl provider, krb5.conf for Kerberos, a super user', () => {
    const props = systemProperties(
      { sasl: { kerberos: { principal: 'zookeeper/localhost@R', keytab: '/k', krb5Conf: '/c' }, superUser: 'admin' } },
      { ...layout, jaasFile: '/r/jaas.conf' },
    );
    expect(props['java.security.auth.login.config']).toBe('/r/jaas.conf');
    expect(props['zookeeper.authProvider.sasl']).toBe('org.apache.zookeeper.server.auth.SASLAuthenticationProvider');
    expect(props['java.security.krb5.conf']).toBe('/c');
    expect(props['zookeeper.superUser']).toBe('admin');
  });

  it('enforce.auth with its schemes; x509 needs TLS and makes client certificates mandatory', () => {
    expect(authProperties({ enforceAuth: ['sasl', 'x509'] }, undefined)).toEqual({
      'zookeeper.enforce.auth.enabled': 'true',
      'zookeeper.enforce.auth.schemes': 'sasl,x509',
    });
    expect(() => authProperties({ enforceAuth: [] }, undefined)).toThrow(/at least one/);
    expect(() => authProperties({ x509Auth: true }, undefined)).toThrow(/tls: true/);
    const props = systemProperties(
      { tls: true, x509Auth: true },
      { ...layout, securePort: 3000, keyStore: { keyStore: 'k', trustStore: 't', password: 'p' } },
    );
    expect(props['zookeeper.ssl.clientAuth']).toBe('need');
    expect(props['zookeeper.authProvider.x509']).toBe('org.apache.zookeeper.server.auth.X509AuthenticationProvider');
  });
});
