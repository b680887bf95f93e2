import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { ServerStartError } from './errors.js';
import { awaitLeader } from './four-letter.js';
import { javaRuntime } from './java.js';
import { LocalZooKeeperServer, makeRoot } from './local-server.js';
import { checkInteger, checkTimeout } from './option-checks.js';
import { freePorts } from './ports.js';
import { untrackTempDir } from './processes.js';
import { sharedTls } from './tls.js';

import type { ServerOptions, ZooKeeperServer } from './options.js';
import type { GeneratedTls } from './tls.js';
import type { QuorumPeer } from './zoo-config.js';

export interface EnsembleOptions extends ServerOptions {
  /** Number of voting members (3 tolerates one failure). */
  size: number;
}

/** A running ensemble: its members and their joint connect string. */
export interface Ensemble extends AsyncDisposable {
  readonly members: ZooKeeperServer[];
  /** Every member's `host:port`, comma-separated. */
  readonly connectString: string;
  /** The member whose `srvr` says `Mode: leader`; waits (up to `timeout` ms, default 30 s) during an election. */
  leader(timeout?: number): Promise<ZooKeeperServer>;
  /** Gracefully stops every member (data kept; members can be started again). */
  stop(): Promise<void>;
  /**
   * Starts `count` new servers that know the current members and themselves, and resolves once they serve (as
   * non-voting learners until a reconfig adds them). `joining` is what to pass to reconfig's `joining` to make
   * them members (needs `reconfigEnabled`); they are in `members` from now on.
   */
  addMembers(count: number): Promise<{ added: ZooKeeperServer[]; joining: string }>;
}

const HOST = '127.0.0.1';
const BIND_ATTEMPTS = 3;

/** The most members addMembers adds at once (as many as an ensemble may have: `size` ≤ 255). */
export const MAX_ADDED_MEMBERS = 255;

/** The local backend's Ensemble (exported for the argument tests, which build one without starting it). @internal */
export class LocalEnsemble implements Ensemble {
  readonly members: LocalZooKeeperServer[];
  readonly #root: string;
  readonly #options: ServerOptions;
  #peers: QuorumPeer[];

  constructor(members: LocalZooKeeperServer[], root: string, options: ServerOptions, peers: QuorumPeer[]) {
    this.members = members;
    this.#root = root;
    this.#options = options;
    this.#peers = peers;
  }

  setPeers(peers: QuorumPeer[]): void {
    this.#peers = peers;
  }

  async addMembers(count: number): Promise<{ added: ZooKeeperServer[]; joining: string }> {
    checkInteger('Ensemble.addMembers', 'count', count, 1, MAX_ADDED_MEMBERS, false);
    if (this.#options.tls) throw new TypeError('addMembers does not support TLS ensembles');
    const ports = await freePorts(count * 3);
    const firstId = Math.max(...this.#peers.map((p) => p.id)) + 1;
    const fresh: QuorumPeer[] = Array.from({ length: count }, (_, i) => ({
      id: firstId + i,
      host: HOST,
      quorumPort: ports[i * 3] as number,
      electionPort: ports[i * 3 + 1] as number,
      clientPort: ports[i * 3 + 2] as number,
    }));
    const peers = [...this.#peers, ...fresh];
    const added: LocalZooKeeperServer[] = [];
    for (const peer of fresh) {
      const memberRoot = join(this.#root, `member-${peer.id}`);
      await mkdir(memberRoot);
      added.push(new LocalZooKeeperServer({ options: this.#options, root: memberRoot, clientPort: peer.clientPort, securePort: undefined, tls: undefined, quorum: { myid: peer.id, peers } }));
    }
    this.members.push(...added);
    this.#peers = peers;
    await Promise.all(added.map((m) => m.spawn()));
    await Promise.all(added.map((m) => m.waitServing()));
    const joining = fresh.map((p) => `server.${p.id}=${p.host}:${p.quorumPort}:${p.electionPort}:participant;${p.host}:${p.clientPort}`).join(',');
    return { added, joining };
  }

  get connectString(): string {
    return this.members.map((m) => m.connectString).join(',');
  }

  async leader(timeout = 30_000): Promise<ZooKeeperServer> {
    checkTimeout('Ensemble.leader', 'timeout', timeout, false);
    return awaitLeader(this.members, (m) => (m.running ? m.fourLetter('srvr').catch(() => '') : Promise.resolve('')), timeout);
  }

  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => m.stop()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all(this.members.map((m) => m.dispose()));
    await rm(this.#root, { recursive: true, force: true });
    untrackTempDir(this.#root);
  }
}

async function pickPeers(size: number, withClientPort: boolean): Promise<QuorumPeer[]> {
  const ports = await freePorts(size * 3);
  return Array.from({ length: size }, (_, i) => ({
    id: i + 1,
    host: HOST,
    quorumPort: ports[i * 3] as number,
    electionPort: ports[i * 3 + 1] as number,
    clientPort: withClientPort ? (ports[i * 3 + 2] as number) : undefined,
  }));
}

/**
 * Starts `size` QuorumPeerMain members on loopback (distinct client, quorum and election ports, one myid
 * each), all at once, and resolves when every member serves and one of them leads.
 */
export async function startLocalEnsemble(options: EnsembleOptions): Promise<Ensemble> {
  const { size, ...serverOptions } = options;
  if (!Number.isInteger(size) || size < 1) throw new TypeError(`ensemble size must be a positive integer, got ${size}`);
  if (serverOptions.clientPort === false) throw new TypeError('ensemble members need their plain client port');
  const { java } = javaRuntime();
  const root = await makeRoot('zkts-ensemble-');
  try {
    const tls: GeneratedTls | undefined = serverOptions.tls ? await sharedTls(java) : undefined;
    let peers = await pickPeers(size, true);
    const securePorts = serverOptions.tls ? await freePorts(size) : [];
    const members: LocalZooKeeperServer[] = [];
    for (const peer of peers) {
      const memberRoot = join(root, `member-${peer.id}`);
      await mkdir(memberRoot);
      members.push(
        new LocalZooKeeperServer({
          options: serverOptions,
          root: memberRoot,
          clientPort: peer.clientPort,
          securePort: securePorts[peer.id - 1],
          tls,
          quorum: { myid: peer.id, peers },
        }),
      );
    }
    const ensemble = new LocalEnsemble(members, root, serverOptions, peers);
    for (let attempt = 1; ; attempt++) {
      try {
        await Promise.all(members.map((m) => m.spawn()));
        await Promise.all(members.map((m) => m.waitServing()));
        await ensemble.leader(serverOptions.startTimeout ?? 60_000);
        return ensemble;
      } catch (error) {
        const tails = await Promise.all(members.map((m) => m.logTail(80)));
        await Promise.all(members.map((m) => m.kill()));
        const bindFailure = tails.some((t) => /BindException|Address already in use/.test(t));
        if (attempt >= BIND_ATTEMPTS || !bindFailure) {
          throw error instanceof ServerStartError ? error : new ServerStartError(String(error), { cause: error });
        }
        // Another process took one of the picked ports: pick all of them again.
        peers = await pickPeers(size, true);
        for (const m of members) m.setPeers(peers, peers[(m.myid ?? 1) - 1]?.clientPort);
        ensemble.setPeers(peers);
      }
    }
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    untrackTempDir(root);
    throw error;
  }
}
