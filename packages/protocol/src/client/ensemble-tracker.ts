/**
 * An opt-in ensemble tracker (Curator's EnsembleTracker): it watches `/zookeeper/config` and, whenever the
 * membership changes (a reconfig), hands the new client addresses to `updateServers`, so the client follows
 * the ensemble instead of staying on the connect string it started with. Built on the client's public API; the
 * config node is read raw, never under the chroot.
 *
 * Config text (one line each): `server.<id>=<host>:<quorumPort>:<electionPort>[:<role>][;[<clientHost>:]<clientPort>]`
 * and `version=<hex>`. A server without a client address cannot be dialled and is left out.
 */
import { ConnectionLossError, ZkError } from '../errors/errors.js';
import { debug } from './diagnostics.js';
import type { HostAddress } from './connect-string.js';
import type { CallOptions, StateChange, Stat, WatchEvent } from './types.js';

export interface TrackedClient {
  readonly chroot: string;
  readonly state: string;
  getConfig(options: CallOptions & { watch: true }): Promise<{ data: Uint8Array; stat: Stat; watch?: Promise<WatchEvent> }>;
  connected(options?: CallOptions): Promise<void>;
  onStateChange(listener: (change: StateChange) => void): () => void;
  updateServers(connectString: string): boolean;
}

/** The client addresses of every server in a dynamic config text, in id order. */
export function clientAddresses(config: string): HostAddress[] {
  const out: { id: number; address: HostAddress }[] = [];
  for (const raw of config.split('\n')) {
    const line = raw.trim();
    const m = /^server\.(\d+)=([^;]*)(?:;(.*))?$/.exec(line);
    if (m === null || m[3] === undefined || m[3] === '') continue;
    const serverHost = hostOf(m[2] ?? '');
    const client = m[3];
    const colon = client.lastIndexOf(':');
    const port = Number(colon < 0 ? client : client.slice(colon + 1));
    let host = colon < 0 ? serverHost : client.slice(0, colon).replace(/^\[|\]$/g, '');
    // A wildcard bind address says "every interface": the server's own address is the one to dial.
    if (host === '0.0.0.0' || host === '::' || host === '') host = serverHost;
    if (!Number.isInteger(port) || port <= 0 || port > 65535 || host === '') continue;
    out.push({ id: Number(m[1]), address: { host, port } });
  }
  return out.sort((a, b) => a.id - b.id).map((x) => x.address);
}

function hostOf(serverPart: string): string {
  // host:quorumPort:electionPort[:role]; an IPv6 host is bracketed.
  if (serverPart.startsWith('[')) return serverPart.slice(1, serverPart.indexOf(']'));
  return serverPart.split(':')[0] ?? '';
}

const key = (hosts: readonly HostAddress[]): string => hosts.map((h) => (h.host.includes(':') ? `[${h.host}]:${h.port}` : `${h.host}:${h.port}`)).join(',');

/** Starts tracking; returns a stop function. Runs while the client lives, across reconnects and renewals. */
export function trackEnsemble(client: TrackedClient): () => void {
  let stopped = false;
  let applied = '';
  const text = new TextDecoder();
  const loop = async (): Promise<void> => {
    while (!stopped) {
      try {
        await client.connected();
        const { data, watch } = await client.getConfig({ watch: true });
        const hosts = clientAddresses(text.decode(data));
        const next = key(hosts);
        if (hosts.length > 0 && next !== applied) {
          if (applied !== '') debug('ensemble changed: %s', next);
          // The first read only records the membership: the connect string the client was given stands.
          if (applied !== '') client.updateServers(`${next}${client.chroot}`);
          applied = next;
        }
        await watch;
      } catch (error) {
        if (stopped || client.state === 'closed' || client.state === 'auth-failed') return;
        if (!(error instanceof ZkError)) debug('ensemble tracker: %s', String(error));
        // Connection loss, or an expiry (the client renews): read the config again once connected.
        if (!(error instanceof ConnectionLossError)) await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  void loop();
  return () => {
    stopped = true;
  };
}
