/**
 * Which service principal a connection authenticates to, as Java's ZooKeeper client picks it
 * (SaslServerPrincipal): `zookeeper.server.principal` when configured, else `<zookeeper.sasl.client.username>/<host>`
 * with the host canonicalized (`zookeeper.sasl.client.canonicalize.hostname`, default true: the address's
 * reverse name, unless that is the address itself). GSSAPI takes it as a host-based service name
 * (`service@host`); the realm comes from krb5.conf ([domain_realm], else default_realm).
 */
import { lookup, lookupService } from 'node:dns/promises';
import { isIP } from 'node:net';

/** The server principal a client asks a ticket for, as the Java client's system properties choose it. */
export interface ServiceOptions {
  /** The whole principal, `service/host[@REALM]` (Java: zookeeper.server.principal); wins over the rest. */
  serverPrincipal?: string | undefined;
  /** The service part (Java: zookeeper.sasl.client.username); default 'zookeeper'. */
  serviceName?: string | undefined;
  /** Use the host's canonical name (Java: zookeeper.sasl.client.canonicalize.hostname); default true. */
  canonicalizeHostname?: boolean | undefined;
}

export interface ServiceName {
  /** `service@host`, what GSSAPI imports as a host-based service. */
  gss: string;
  /** `service/host`, for messages. */
  principal: string;
}

/** Parses `service/host[@REALM]`; the realm is left to krb5.conf (GSSAPI host-based names carry none). */
export function parseServerPrincipal(principal: string): { service: string; host: string } {
  const at = principal.lastIndexOf('@');
  const name = at < 0 ? principal : principal.slice(0, at);
  const slash = name.indexOf('/');
  if (slash <= 0 || slash === name.length - 1) {
    throw new TypeError(`serverPrincipal must look like 'service/host[@REALM]', got ${JSON.stringify(principal)}`);
  }
  return { service: name.slice(0, slash), host: name.slice(slash + 1) };
}

/** The host's canonical name as Java's InetAddress.getCanonicalHostName gives it, or the host as written. */
export async function canonicalHost(host: string): Promise<string> {
  try {
    const address = isIP(host) === 0 ? (await lookup(host)).address : host;
    const { hostname } = await lookupService(address, 0);
    return hostname === '' || hostname === address ? host : hostname;
  } catch {
    return host;
  }
}

export async function serviceName(host: string, options: ServiceOptions): Promise<ServiceName> {
  if (options.serverPrincipal !== undefined) {
    const parsed = parseServerPrincipal(options.serverPrincipal);
    return { gss: `${parsed.service}@${parsed.host}`, principal: `${parsed.service}/${parsed.host}` };
  }
  const service = options.serviceName ?? 'zookeeper';
  const resolved = options.canonicalizeHostname === false ? host : await canonicalHost(host);
  return { gss: `${service}@${resolved}`, principal: `${service}/${resolved}` };
}
