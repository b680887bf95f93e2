/**
 * The data tree (org.apache.zookeeper.server.DataTree): nodes by path with their data, ACL, persisted Stat and
 * children; the ephemerals of each session; the containers and TTL nodes the reaper visits; and the last
 * applied zxid. Mutations take a zxid and a time and report what they changed to the watch registry in
 * ZooKeeper's order, so a transaction's notifications are queued as it is applied — before its reply.
 * Validation (versions, ACLs, paths) is not done here: requests/prep.ts decides, this applies.
 */
import { EventType, type ACL, type Stat } from '@zkts/protocol/codec';

import { OPEN_ACL, READ_ACL } from './acl.js';
import { ephemeralKind } from './ephemeral-type.js';
import { JavaHashSet } from './java-hash-order.js';
import { childNameOf, parentOf, watchPathOf } from './path.js';

/** StatPersisted: the Stat fields a node stores (dataLength and numChildren are derived). */
export interface NodeStat {
  czxid: bigint;
  mzxid: bigint;
  ctime: bigint;
  mtime: bigint;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: bigint;
  pzxid: bigint;
}

/** One znode. */
export interface DataNode {
  data: Uint8Array | null;
  acl: readonly ACL[];
  readonly stat: NodeStat;
  readonly children: JavaHashSet;
}

/** Where the tree reports changes, so watches fire in the order ZooKeeper fires them. */
export interface WatchTrigger {
  /** A watch event on `path` for every watcher of `manager` the event reaches; returns the watchers notified. */
  trigger(manager: 'data' | 'child', path: string, type: number, acl: readonly ACL[], suppress?: ReadonlySet<unknown>): ReadonlySet<unknown>;
}

const NO_WATCHES: WatchTrigger = { trigger: () => new Set() };

function zeroStat(): NodeStat {
  return { czxid: 0n, mzxid: 0n, ctime: 0n, mtime: 0n, version: 0, cversion: 0, aversion: 0, ephemeralOwner: 0n, pzxid: 0n };
}

/**
 * The wire Stat of a node (DataNode.copyStat): the stored cversion counts creates, the reported one counts
 * changes (creates + deletes = 2 × creates − children left), and containers and TTL nodes report
 * ephemeralOwner 0.
 */
export function statOf(node: DataNode, extendedTypesEnabled: boolean): Stat {
  const s = node.stat;
  const numChildren = node.children.size;
  return {
    czxid: s.czxid,
    mzxid: s.mzxid,
    ctime: s.ctime,
    mtime: s.mtime,
    version: s.version,
    cversion: (Math.imul(s.cversion, 2) - numChildren) | 0,
    aversion: s.aversion,
    ephemeralOwner: ephemeralKind(s.ephemeralOwner, extendedTypesEnabled) === 'normal' ? s.ephemeralOwner : 0n,
    dataLength: node.data === null ? 0 : node.data.byteLength,
    numChildren,
    pzxid: s.pzxid,
  };
}

/** The paths ZooKeeper owns: they cannot be deleted (DataTree.isSpecialPath). */
const SPECIAL_PATHS = new Set(['/', '/zookeeper', '/zookeeper/quota', '/zookeeper/config']);

/** Nodes, ephemerals, containers and TTL nodes, as one standalone ZooKeeper holds them in memory. */
export class DataTree {
  private readonly nodes = new Map<string, DataNode>();
  private readonly ephemerals = new Map<bigint, JavaHashSet>();
  /** Paths of containers and of TTL nodes (ContainerManager's candidates). */
  readonly containers = new Set<string>();
  readonly ttls = new Set<string>();
  /** The zxid of the last transaction applied (lastProcessedZxid). */
  lastZxid = 0n;
  watches: WatchTrigger = NO_WATCHES;

  constructor(readonly extendedTypesEnabled: boolean) {
    const node = (acl: readonly ACL[]): DataNode => ({ data: new Uint8Array(0), acl, stat: zeroStat(), children: new JavaHashSet(8) });
    const root = node(OPEN_ACL);
    // The root answers to '' (parent of top-level nodes) and '/'.
    this.nodes.set('', root);
    this.nodes.set('/', root);
    const proc = node(OPEN_ACL);
    root.children.add('zookeeper');
    this.nodes.set('/zookeeper', proc);
    proc.children.add('quota');
    this.nodes.set('/zookeeper/quota', node(OPEN_ACL));
    proc.children.add('config');
    const config = node(READ_ACL);
    // addConfigNode sets READ_ACL_UNSAFE through setACL(path, acl, -1): aversion -1.
    config.stat.aversion = -1;
    this.nodes.set('/zookeeper/config', config);
  }

  isSpecialPath(path: string): boolean {
    return SPECIAL_PATHS.has(path);
  }

  getNode(path: string): DataNode | undefined {
    return this.nodes.get(path);
  }

  /** Number of paths (both names of the root included, as ZooKeeper's nodes map). */
  get pathCount(): number {
    return this.nodes.size;
  }

  /** getAllChildrenNumber: every node below `path`. */
  allChildrenNumber(path: string): number {
    if (path === '/') return this.nodes.size - 2;
    const prefix = `${path}/`;
    let n = 0;
    for (const key of this.nodes.keys()) if (key.startsWith(prefix)) n++;
    return n;
  }

  /** The wire Stat of `node`. */
  statOf(node: DataNode): Stat {
    return statOf(node, this.extendedTypesEnabled);
  }

  /** A node's children in ZooKeeper's order. */
  childrenOf(node: DataNode): string[] {
    return node.children.ordered();
  }

  /** The ephemerals of a session, in the order of DataTree.getEphemerals (a HashSet clone). */
  ephemeralsOf(sessionId: bigint): string[] {
    return this.ephemerals.get(sessionId)?.orderedClone() ?? [];
  }

  /** Every session id that owns ephemerals. */
  sessionsWithEphemerals(): bigint[] {
    return [...this.ephemerals.keys()];
  }

  /** DataTree.createNode: `parentCVersion` is the parent's new cversion (from prep). Returns the new node. */
  createNode(path: string, data: Uint8Array | null, acl: readonly ACL[], owner: bigint, parentCVersion: number, zxid: bigint, time: bigint): DataNode {
    const parentName = parentOf(path);
    const parent = this.nodes.get(parentName);
    if (parent === undefined) throw new Error(`createNode ${path}: no parent`);
    if (parentCVersion > parent.stat.cversion) {
      parent.stat.cversion = parentCVersion;
      parent.stat.pzxid = zxid;
    }
    const node: DataNode = {
      data,
      acl,
      stat: { czxid: zxid, mzxid: zxid, ctime: time, mtime: time, version: 0, cversion: 0, aversion: 0, ephemeralOwner: owner, pzxid: zxid },
      children: new JavaHashSet(8),
    };
    parent.children.add(childNameOf(path));
    this.nodes.set(path, node);
    const kind = ephemeralKind(owner, this.extendedTypesEnabled);
    if (kind === 'container') this.containers.add(path);
    else if (kind === 'ttl') this.ttls.add(path);
    else if (owner !== 0n) {
      let set = this.ephemerals.get(owner);
      if (set === undefined) {
        set = new JavaHashSet(16);
        this.ephemerals.set(owner, set);
      }
      set.add(path);
    }
    this.watches.trigger('data', path, EventType.NodeCreated, acl);
    this.watches.trigger('child', watchPathOf(parentName), EventType.NodeChildrenChanged, parent.acl);
    return node;
  }

  /** DataTree.deleteNode. */
  deleteNode(path: string, zxid: bigint): void {
    const parentName = parentOf(path);
    const parent = this.nodes.get(parentName);
    const node = this.nodes.get(path);
    if (parent === undefined || node === undefined) throw new Error(`deleteNode ${path}: no such node`);
    parent.children.delete(childNameOf(path));
    if (zxid > parent.stat.pzxid) parent.stat.pzxid = zxid;
    this.nodes.delete(path);
    const owner = node.stat.ephemeralOwner;
    const kind = ephemeralKind(owner, this.extendedTypesEnabled);
    if (kind === 'container') this.containers.delete(path);
    else if (kind === 'ttl') this.ttls.delete(path);
    else if (owner !== 0n) this.ephemerals.get(owner)?.delete(path);
    const notified = this.watches.trigger('data', path, EventType.NodeDeleted, node.acl);
    this.watches.trigger('child', path, EventType.NodeDeleted, node.acl, notified);
    this.watches.trigger('child', watchPathOf(parentName), EventType.NodeChildrenChanged, parent.acl);
  }

  /** DataTree.setData; returns the node. */
  setData(path: string, data: Uint8Array | null, version: number, zxid: bigint, time: bigint): DataNode {
    const node = this.nodes.get(path);
    if (node === undefined) throw new Error(`setData ${path}: no such node`);
    node.data = data;
    node.stat.mtime = time;
    node.stat.mzxid = zxid;
    node.stat.version = version;
    this.watches.trigger('data', path, EventType.NodeDataChanged, node.acl);
    return node;
  }

  /** DataTree.setACL; returns the node. */
  setACL(path: string, acl: readonly ACL[], aversion: number): DataNode {
    const node = this.nodes.get(path);
    if (node === undefined) throw new Error(`setACL ${path}: no such node`);
    node.stat.aversion = aversion;
    node.acl = acl;
    return node;
  }

  /** DataTree.killSession: deletes `paths` (the closeSession txn's list), then anything else the session owned. */
  killSession(sessionId: bigint, paths: readonly string[], zxid: bigint): void {
    const owned = this.ephemerals.get(sessionId);
    this.ephemerals.delete(sessionId);
    for (const path of paths) if (this.nodes.has(path)) this.deleteNode(path, zxid);
    if (owned === undefined) return;
    for (const path of owned.ordered()) if (!paths.includes(path) && this.nodes.has(path)) this.deleteNode(path, zxid);
  }
}
