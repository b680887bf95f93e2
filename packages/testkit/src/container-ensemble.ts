/**
 * Ensembles in containers, with the same handle as the process backend (Ensemble) plus the faults a TCP proxy
 * cannot give: a member cut off from its peers while its clients still reach it (isolate, partition), a
 * frozen JVM (pause: docker pause), and heal. Each ensemble gets its own Docker network with a subnet Docker
 * allocates (so it never overlaps another), and every member a fixed address on it: zoo.cfg names peers by
 * address (no DNS, nothing changes across restarts), and partitions are DROP rules on those addresses
 * (container-faults.ts). Clients use each member's mapped port on the engine's host, as with a standalone
 * container server.
 */

import { containerTls, ContainerZooKeeperServer } from './container.js';
import { blockedPeers, pairKey, setBlocked } from './container-faults.js';
import { CONTAINER_CLIENT_PORT, CONTAINER_ELECTION_PORT, CONTAINER_QUORUM_PORT } from './container-launch.js';
import { engine, engineEndpoint, testkitLabels, trackNetwork, untrackNetwork, zookeeperImage } from './container-runtime.js';
import { MAX_ADDED_MEMBERS } from './ensemble.js';
import { InvalidOptionError } from './errors.js';
import { awaitLeader } from './four-letter.js';
import { checkInteger, checkTimeout, refuse } from './option-checks.js';
import { newTag } from './processes.js';

import type { ContainerTls } from './container-launch.js';
import type { EngineEndpoint, RuntimeClient } from './container-runtime.js';
import type { Ensemble, EnsembleOptions } from './ensemble.js';
import type { ServerOptions, TlsMaterial, ZooKeeperServer } from './options.js';
import type { QuorumPeer } from './zoo-config.js';

/** An ensemble whose members run in containers on one Docker network; faults last until heal(). */
export interface ContainerEnsemble extends Ensemble {
  readonly members: ContainerZooKeeperServer[];
  /** The Docker network's name. */
  readonly network: string;
  /** Cuts `member` off from every other member (both ways); its clients still reach it. */
  isolate(member: ZooKeeperServer): Promise<void>;
  /**
   * Cuts every listed group off from every other listed group (both ways), e.g. `partition([a], [b, c])`;
   * links within a group, and of members listed nowhere, stay. Adds to the cuts already in force.
   */
  partition(...groups: ZooKeeperServer[][]): Promise<void>;
  /** Freezes the member's JVM (docker pause): peers and clients get no answer, as in a long GC pause. */
  pause(member: ZooKeeperServer): Promise<void>;
  /** Thaws a member frozen by pause(). */
  unpause(member: ZooKeeperServer): Promise<void>;
  /** Removes every cut and unpauses every paused member. */
  heal(): Promise<void>;
}

interface EnsembleNetwork {
  id: string;
  name: string;
  /** The subnet's first address as a 32-bit number, and its prefix length. */
  base: number;
  prefix: number;
}

type EnsembleTls = { stores: ContainerTls; material: TlsMaterial };

const NETWORK_ATTEMPTS = 5;

function parseIpv4(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function formatIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** Member `id`'s fixed address: .10 + id in the network's subnet (the gateway is .1, Docker's pool starts at .2). */
export function memberAddress(subnet: string, id: number): string {
  const [address, bits] = subnet.split('/');
  const prefix = Number(bits);
  if (!address || !Number.isInteger(prefix) || prefix > 24) throw new Error(`unexpected subnet ${subnet}`);
  return formatIpv4(parseIpv4(address) + 10 + id);
}

/** A server handle's `host:port`, when `value` looks like one (its connectString may throw before a first start). */
function addressOf(value: object): string | undefined {
  try {
    const address = (value as { connectString?: unknown }).connectString;
    return typeof address === 'string' ? address : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Docker only accepts fixed addresses on a network created with an explicit subnet; asking for one would risk
 * overlapping another network. So: let Docker allocate a subnet, note it, and create the network again with
 * that subnet given explicitly (retried if another network took it in between).
 */
async function createNetwork(client: RuntimeClient, tag: string): Promise<EnsembleNetwork> {
  const docker = client.container.dockerode;
  const labels = testkitLabels(tag);
  for (let attempt = 1; ; attempt++) {
    const name = `zkts-${tag}-${attempt}`;
    const probe = await docker.createNetwork({ Name: name, Labels: labels, CheckDuplicate: true });
    const subnet = (await probe.inspect()).IPAM?.Config?.[0]?.Subnet as string | undefined;
    await probe.remove();
    if (!subnet) throw new Error('Docker allocated no IPv4 subnet for the ensemble network');
    try {
      const network = await docker.createNetwork({
        Name: name,
        Labels: labels,
        CheckDuplicate: true,
        IPAM: { Driver: 'default', Config: [{ Subnet: subnet }] },
      });
      trackNetwork(network.id);
      const [address, bits] = subnet.split('/');
      return { id: network.id, name, base: parseIpv4(address ?? ''), prefix: Number(bits) };
    } catch (error) {
      if (attempt >= NETWORK_ATTEMPTS) throw error;
    }
  }
}

/** The container backend's ensemble (exported for the argument tests, which build one without starting it). @internal */
export class DockerEnsemble implements ContainerEnsemble {
  readonly members: ContainerZooKeeperServer[] = [];
  readonly #client: RuntimeClient;
  readonly #endpoint: EngineEndpoint;
  readonly #image: string;
  readonly #options: ServerOptions;
  readonly #tag: string;
  readonly #network: EnsembleNetwork;
  readonly #tls: EnsembleTls | undefined;
  #peers: QuorumPeer[] = [];
  /** Cut member pairs, by index in `members`. */
  readonly #cuts = new Set<string>();

/** @internal */
  constructor(client: RuntimeClient, endpoint: EngineEndpoint, image: string, options: ServerOptions, tag: string, network: EnsembleNetwork, tls: EnsembleTls | undefined) {
    this.#client = client;
    this.#endpoint = endpoint;
    this.#image = image;
    this.#options = options;
    this.#tag = tag;
    this.#network = network;
    this.#tls = tls;
  }

  get network(): string {
    return this.#network.name;
  }

  get connectString(): string {
    return this.members.map((m) => m.connectString).join(',');
  }

  peersFor(ids: number[]): QuorumPeer[] {
    return ids.map((id) => ({
      id,
      host: memberAddress(`${formatIpv4(this.#network.base)}/${this.#network.prefix}`, id),
      quorumPort: CONTAINER_QUORUM_PORT,
      electionPort: CONTAINER_ELECTION_PORT,
      clientPort: CONTAINER_CLIENT_PORT,
    }));
  }

  /** Creates (not starts) members for `fresh`, each knowing `peers`. */
  addServers(fresh: QuorumPeer[], peers: QuorumPeer[]): ContainerZooKeeperServer[] {
    this.#peers = peers;
    const added = fresh.map(
      (peer) =>
        new ContainerZooKeeperServer(
          {
            client: this.#client,
            endpoint: this.#endpoint,
            image: this.#image,
            options: this.#options,
            plan: { plainPort: true, tls: this.#tls?.stores, quorum: { myid: peer.id, peers } },
            tag: this.#tag,
            network: { name: this.#network.name, ip: peer.host },
            onStarted: (server) => this.#applyTo(server),
          },
          this.#tls?.material,
        ),
    );
    this.members.push(...added);
    return added;
  }

  async addMembers(count: number): Promise<{ added: ZooKeeperServer[]; joining: string }> {
    checkInteger('ContainerEnsemble.addMembers', 'count', count, 1, MAX_ADDED_MEMBERS, false);
    if (this.#options.tls) throw new TypeError('addMembers does not support TLS ensembles');
    const firstId = Math.max(...this.#peers.map((p) => p.id)) + 1;
    const fresh = this.peersFor(Array.from({ length: count }, (_, i) => firstId + i));
    const added = this.addServers(fresh, [...this.#peers, ...fresh]);
    await Promise.all(added.map((m) => m.spawn()));
    await Promise.all(added.map((m) => m.waitServing()));
    const joining = fresh
      .map((p) => `server.${p.id}=${p.host}:${p.quorumPort}:${p.electionPort}:participant;${p.host}:${p.clientPort ?? CONTAINER_CLIENT_PORT}`)
      .join(',');
    return { added, joining };
  }

  async leader(timeout = 30_000): Promise<ZooKeeperServer> {
    checkTimeout('ContainerEnsemble.leader', 'timeout', timeout, false);
    return awaitLeader(this.members, (m) => (m.running && !m.paused ? m.fourLetter('srvr', 2000).catch(() => '') : Promise.resolve('')), timeout);
  }

  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => m.stop()));
  }

  /** `member`'s index in `members`; anything else (another ensemble's server, a wrong type) is refused by `option`. */
  #indexOf(where: string, option: string, member: unknown): number {
    const index = this.members.indexOf(member as ContainerZooKeeperServer);
    if (index >= 0) return index;
    const address = typeof member === 'object' && member !== null ? addressOf(member) : undefined;
    if (address === undefined) refuse(`ContainerEnsemble.${where}`, option, 'a member of this ensemble', member);
    throw new InvalidOptionError(option, `ContainerEnsemble.${where}: ${option} must be a member of this ensemble, got the server ${address} (members: ${this.members.map((m) => addressOf(m) ?? 'not started').join(', ') || 'none'})`);
  }

  /** Makes `server`'s namespace drop exactly the addresses of the members it is cut from (when it runs). */
  async #applyTo(server: ContainerZooKeeperServer): Promise<void> {
    const index = this.members.indexOf(server);
    const blocked = blockedPeers(this.members.length, this.#cuts)[index] ?? [];
    const pid = await server.pid();
    if (pid === undefined) return;
    await setBlocked(pid, blocked.map((i) => this.members[i]?.ip ?? '').filter((ip) => ip !== ''));
  }

  async #apply(indices: Iterable<number>): Promise<void> {
    const targets = [...new Set(indices)].map((i) => this.members[i]).filter((m): m is ContainerZooKeeperServer => m?.running === true);
    await Promise.all(targets.map((m) => this.#applyTo(m)));
  }

  async isolate(member: ZooKeeperServer): Promise<void> {
    this.#indexOf('isolate', 'member', member);
    await this.partition([member], this.members.filter((m) => m !== member));
  }

  async partition(...groups: ZooKeeperServer[][]): Promise<void> {
    // Every group is checked before the first cut: a refused call leaves the faults as they were.
    const indexGroups = groups.map((g, i) => {
      if (!Array.isArray(g)) refuse('ContainerEnsemble.partition', `groups[${i}]`, 'an array of members', g);
      return (g as unknown[]).map((m, j) => this.#indexOf('partition', `groups[${i}][${j}]`, m));
    });
    const groupOf = new Map<number, number>();
    indexGroups.forEach((group, i) =>
      group.forEach((index, j) => {
        const first = groupOf.get(index);
        if (first !== undefined && first !== i) {
          refuse('ContainerEnsemble.partition', `groups[${i}][${j}]`, `in one group only (it is in groups[${first}] too)`, addressOf(this.members[index] ?? {}) ?? `member ${index + 1}`);
        }
        groupOf.set(index, i);
      }),
    );
    const touched = new Set<number>();
    for (let g = 0; g < indexGroups.length; g++) {
      for (let h = g + 1; h < indexGroups.length; h++) {
        for (const a of indexGroups[g] ?? []) {
          for (const b of indexGroups[h] ?? []) {
            this.#cuts.add(pairKey(a, b));
            touched.add(a).add(b);
          }
        }
      }
    }
    await this.#apply(touched);
  }

  async pause(member: ZooKeeperServer): Promise<void> {
    await this.members[this.#indexOf('pause', 'member', member)]?.pause();
  }

  async unpause(member: ZooKeeperServer): Promise<void> {
    await this.members[this.#indexOf('unpause', 'member', member)]?.unpause();
  }

  async heal(): Promise<void> {
    const touched = blockedPeers(this.members.length, this.#cuts).flatMap((peers, i) => (peers.length > 0 ? [i] : []));
    this.#cuts.clear();
    await Promise.all([this.#apply(touched), ...this.members.map((m) => m.unpause())]);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all(this.members.map((m) => m.dispose()));
    await this.#client.container.dockerode.getNetwork(this.#network.id).remove().catch(() => undefined);
    untrackNetwork(this.#network.id);
  }
}

/**
 * Starts `size` members in containers on a fresh Docker network, all at once, and resolves when every member
 * serves and one of them leads.
 */
export async function startContainerEnsemble(options: EnsembleOptions): Promise<ContainerEnsemble> {
  const { size, ...serverOptions } = options;
  if (!Number.isInteger(size) || size < 1) throw new TypeError(`ensemble size must be a positive integer, got ${size}`);
  if (serverOptions.clientPort === false) throw new TypeError('ensemble members need their plain client port');
  const client = await engine();
  const image = await zookeeperImage(client, serverOptions.image);
  const tls = serverOptions.tls ? await containerTls() : undefined;
  const tag = newTag();
  const network = await createNetwork(client, tag);
  const ensemble = new DockerEnsemble(client, await engineEndpoint(client), image, serverOptions, tag, network, tls);
  try {
    const peers = ensemble.peersFor(Array.from({ length: size }, (_, i) => i + 1));
    const members = ensemble.addServers(peers, peers);
    await Promise.all(members.map((m) => m.spawn()));
    await Promise.all(members.map((m) => m.waitServing()));
    await ensemble.leader(serverOptions.startTimeout ?? 120_000);
    return ensemble;
  } catch (error) {
    await ensemble[Symbol.asyncDispose]();
    throw error;
  }
}
