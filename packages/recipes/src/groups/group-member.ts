/**
 * Curator's GroupMember (curator-recipes, recipes/nodes/GroupMember.java): this instance is a member of a
 * group as the ephemeral node `<membershipPath>/<thisId>` (data = its payload), kept by a PersistentNode (made
 * again after a delete and after a session renewal), and the group's members are followed by a ChildrenCache:
 * `getCurrentMembers()` is a Map from each member's id (its node name) to its payload. As in Curator, this
 * instance always counts as a member, with its own payload, even before its node shows in the cache.
 *
 * Differences from Curator, each on purpose: the default payload is empty (Curator writes the host's address);
 * `start()` resolves once our node exists and the member list is read; changes can be followed (`onChange`,
 * `changes()`). Ids must be unique in a group: a second member with our id waits for the first one's node to go
 * (PersistentNode never adopts another session's ephemeral).
 */
import { joinPath, systemClock, type Clock, type ACL } from '@zkts/protocol';

import type { CacheClient } from '../cache/index.js';
import { RecipeClosedError } from '../errors.js';
import {
  aclRule, withAcl,
  checkArg, checkClientAndPath, checkOptions, checkWait, nested, rules, openScope, type Data, type RecipeClient, type WaitOptions,
} from '../internal/index.js';
import { PersistentNode } from '../nodes/index.js';
import { MemberView } from './member-view.js';

/** Options of a GroupMember. */
export interface GroupMemberOptions {
  /** The data of our member node (Curator's `payload`). Default: empty. */
  payload?: Data;
  /** Time source of the waits' timeouts and the retry pause (default: the system clock). */
  clock?: Clock;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
}

const toBytes = (data: Data): Uint8Array => (typeof data === 'string' ? new TextEncoder().encode(data) : data);

/** Curator's GroupMember: our ephemeral `<membershipPath>/<thisId>` kept across deletes and renewals, and the group's members with their payloads. */
export class GroupMember implements AsyncDisposable {
  readonly client: RecipeClient & CacheClient;
  readonly membershipPath: string;
  readonly thisId: string;
  private payload: Uint8Array;
  private readonly clock: Clock;
  private readonly node: PersistentNode;
  private readonly view: MemberView<Uint8Array>;
  private closed = false;

  constructor(client: RecipeClient & CacheClient, membershipPath: string, thisId: string, options: GroupMemberOptions = {}) {
    checkClientAndPath('GroupMember', client, membershipPath, 'membershipPath');
    checkArg('GroupMember', 'thisId', thisId, rules.nodeName);
    checkOptions('GroupMember', options, { payload: rules.data, clock: rules.clock, acl: aclRule });
    this.client = client = withAcl(client, options.acl);
    this.membershipPath = membershipPath;
    this.thisId = thisId;
    this.payload = toBytes(options.payload ?? new Uint8Array(0));
    this.clock = options.clock ?? systemClock;
    this.node = new PersistentNode(client, joinPath(membershipPath, thisId), { mode: 'ephemeral', data: this.payload, clock: this.clock });
    this.view = new MemberView(client, membershipPath, { data: true, member: (_name, data) => data ?? new Uint8Array(0) });
  }

  /**
   * Registers this member and starts following the group; resolves once our node exists and the members are
   * read. A timeout or abort stops the waiting, not the membership (close() ends it).
   */
  async start(options: WaitOptions = {}): Promise<void> {
    checkWait('GroupMember.start', options);
    if (this.closed) throw new RecipeClosedError(`group member ${this.thisId} closed`);
    this.node.start();
    const scope = openScope(options, `group member ${this.thisId}`, this.clock);
    try {
      await this.node.awaitCreated(nested(scope));
      await this.view.start(nested(scope));
    } finally {
      scope?.dispose();
    }
  }

  /** The members by id, with their payloads; this instance is always among them. */
  getCurrentMembers(): Map<string, Uint8Array> {
    const members = new Map(this.view.current);
    if (!members.has(this.thisId) && !this.closed) members.set(this.thisId, this.payload);
    return members;
  }

  /** Our node's full path while it exists (undefined while it is being made again). */
  get currentPath(): string | undefined {
    return this.node.currentPath;
  }

  /** New payload: written to our node now, and used whenever it is made again. */
  async setThisData(data: Data): Promise<void> {
    checkArg('GroupMember.setThisData', 'data', data, rules.data);
    this.payload = toBytes(data);
    await this.node.setData(this.payload);
  }

  /** A member's id from its node's full path (Curator's `idFromPath`). */
  idFromPath(path: string): string {
    checkArg('GroupMember.idFromPath', 'path', path, rules.string);
    return path.slice(path.lastIndexOf('/') + 1);
  }

  /** Calls `listener` with the members (as getCurrentMembers) each time the list read from ZooKeeper changes. */
  onChange(listener: (members: Map<string, Uint8Array>) => void): () => void {
    checkArg('GroupMember.onChange', 'listener', listener, rules.function);
    return this.view.feed.on(() => listener(this.getCurrentMembers()));
  }

  /** The members each time they change, until close() or the signal. */
  changes(options: { signal?: AbortSignal } = {}): AsyncIterableIterator<Map<string, Uint8Array>> {
    const changes = this.view.iterate(options, 'GroupMember.changes', this.clock);
    const members = (): Map<string, Uint8Array> => this.getCurrentMembers();
    return (async function* () {
      for await (const _ of changes) yield members();
    })();
  }

  /** Leaves the group (our node is deleted, retried across reconnects) and stops following it. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.node.close(), this.view.close()]);
  }

  /** The same as close(). */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
