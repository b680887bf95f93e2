/**
 * kazoo's Party and ShallowParty (kazoo/recipe/party.py): a pool of members, each an ephemeral node under the
 * party path, with the same node names as kazoo so kazoo and zkts processes see each other's members.
 *
 *   Party         `<path>/<uuidhex>__party__`, data = the identifier; members = the data of every child whose
 *                 name carries `__party__` (one read per member).
 *   ShallowParty  `<path>/<uuidhex>-<identifier>`, empty data; members = what follows the first `-` of every
 *                 child's name (one listing, no reads; the identifier must fit in a node name).
 *
 * Beyond kazoo: our node is kept by a PersistentNode, so it is made again when a reconnect finds it deleted
 * and when the session expires and the client renews it (kazoo's party stays gone until join() is called
 * again); and `current` / `onChange` / `changes()` follow the member list through a ChildrenCache.
 */
import { joinPath, systemClock, type Clock, type ACL } from '@zkts/protocol';

import type { CacheClient } from '../cache/index.js';
import { RecipeClosedError } from '../errors.js';
import {
  aclRule, withAcl,
  checkArg, checkClientAndPath, checkNodeName, checkOptions, checkWait, childrenOrEmpty, rules, kazooPrefix, nested, openScope, readNodes, utf8, type RecipeClient,
  type OptionRules, type WaitOptions,
} from '../internal/index.js';
import { PersistentNode } from '../nodes/index.js';
import { MemberView, type MemberRule } from './member-view.js';

/** Options of a Party or ShallowParty. */
export interface PartyOptions {
  /**
   * This member's identifier (kazoo's `identifier`): a Party stores it as its node's data, a ShallowParty puts
   * it in its node's name. Default '' (kazoo's default).
   */
  identifier?: string;
  /** Time source of the waits' timeouts and the retry pause (default: the system clock). */
  clock?: Clock;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
}

const PARTY_MARKER = '__party__';

const OPTION_RULES: OptionRules<PartyOptions> = { identifier: rules.string, clock: rules.clock, acl: aclRule };

const hex = (): string => kazooPrefix(globalThis.crypto.randomUUID());

/** What Party and ShallowParty share: joining, leaving, reading and following the members. */
abstract class BaseParty implements AsyncDisposable {
  readonly client: RecipeClient & CacheClient;
  readonly path: string;
  readonly identifier: string;
  /** Our node's full path: fixed for the life of the object (one uuid, as kazoo makes once per party object). */
  readonly node: string;
  private readonly clock: Clock;
  private readonly rule: MemberRule<string>;
  private readonly view: MemberView<string>;
  private keeper: PersistentNode | undefined;
  private closed = false;

  protected constructor(client: RecipeClient & CacheClient, path: string, name: string, rule: MemberRule<string>, options: PartyOptions) {
    checkClientAndPath(new.target.name, client, path);
    this.client = client = withAcl(client, options.acl);
    this.path = path;
    this.identifier = options.identifier ?? '';
    this.node = joinPath(path, name);
    this.clock = options.clock ?? systemClock;
    this.rule = rule;
    this.view = new MemberView(client, path, rule);
  }

  /** What our node holds. */
  protected abstract get data(): string;

  /** Whether we take part (between join() and leave()); our node may be being made again just now. */
  get participating(): boolean {
    return this.keeper !== undefined;
  }

  /**
   * Joins the party: resolves once our node exists and the member list is followed. From then on the node is
   * kept (made again after a delete or a renewal) until leave(). A timeout or abort stops the waiting, not the
   * joining (leave() does). Joining again while joined changes nothing.
   */
  async join(options: WaitOptions = {}): Promise<void> {
    checkWait(`${this.constructor.name}.join`, options);
    if (this.closed) throw new RecipeClosedError(`party ${this.path} closed`);
    if (this.keeper === undefined) {
      this.keeper = new PersistentNode(this.client, this.node, { mode: 'ephemeral', data: this.data, clock: this.clock });
      this.keeper.start();
    }
    const keeper = this.keeper;
    const scope = openScope(options, `joining party ${this.path}`, this.clock);
    try {
      await keeper.awaitCreated(nested(scope));
      await this.view.start(nested(scope));
    } finally {
      scope?.dispose();
    }
  }

  /** Leaves the party: our node is deleted (retried across reconnects). The member list is still followed. */
  async leave(): Promise<void> {
    const keeper = this.keeper;
    this.keeper = undefined;
    await keeper?.close();
  }

  /** Follows the member list without joining; resolves with it once read. */
  async watch(options: WaitOptions = {}): Promise<string[]> {
    checkWait(`${this.constructor.name}.watch`, options);
    if (this.closed) throw new RecipeClosedError(`party ${this.path} closed`);
    await this.view.start(options);
    return this.current;
  }

  /** The members as last seen (followed after join() or watch(); empty before), in their nodes' name order. */
  get current(): string[] {
    return [...this.view.current.values()];
  }

  /** Calls `listener` with the whole member list each time it changes; returns the unsubscribe function. */
  onChange(listener: (members: string[]) => void): () => void {
    checkArg(`${this.constructor.name}.onChange`, 'listener', listener, rules.function);
    return this.view.feed.on((members) => listener([...members.values()]));
  }

  /** The member list each time it changes, until close() or the signal. */
  changes(options: { signal?: AbortSignal } = {}): AsyncIterableIterator<string[]> {
    const members = this.view.iterate(options, `${this.constructor.name}.changes`, this.clock);
    return (async function* () {
      for await (const m of members) yield [...m.values()];
    })();
  }

  /** The members, read from ZooKeeper now (kazoo's iteration), in their nodes' name order. */
  async members(): Promise<string[]> {
    const names = (await childrenOrEmpty(this.client, this.path)).filter((n) => this.accepts(n)).sort();
    if (!this.rule.data) return names.map((n) => this.rule.member(n, undefined) as string);
    const read = await readNodes(this.client, names.map((n) => joinPath(this.path, n)));
    return read.map((r) => utf8(r.data));
  }

  /** How many members there are now (kazoo's `len(party)`): one listing, no reads. */
  async size(): Promise<number> {
    return (await childrenOrEmpty(this.client, this.path)).filter((n) => this.accepts(n)).length;
  }

  /** Leaves the party and stops following the members (iterators end). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.leave(), this.view.close()]);
  }

  /** The same as close(): leaves and stops following. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private accepts(name: string): boolean {
    return this.rule.member(name, new Uint8Array(0)) !== undefined;
  }
}

/** kazoo's Party: `<path>/<uuidhex>__party__` ephemeral nodes whose data is each member's identifier; re-joins by itself. */
export class Party extends BaseParty {
  constructor(client: RecipeClient & CacheClient, path: string, options: PartyOptions = {}) {
    checkOptions('Party', options, OPTION_RULES);
    super(client, path, `${hex()}${PARTY_MARKER}`, {
      data: true,
      member: (name, data) => (name.includes(PARTY_MARKER) ? utf8(data ?? new Uint8Array(0)) : undefined),
    }, options);
  }

  protected get data(): string {
    return this.identifier;
  }
}

/**
 * kazoo's ShallowParty: `<path>/<uuidhex>-<identifier>` ephemeral nodes; the members are read from the names
 * alone (one listing). The identifier must fit in a node name (no `/`).
 */
export class ShallowParty extends BaseParty {
  constructor(client: RecipeClient & CacheClient, path: string, options: PartyOptions = {}) {
    checkOptions('ShallowParty', options, OPTION_RULES);
    const name = `${hex()}-${options.identifier ?? ''}`;
    checkNodeName('a shallow party identifier (with its uuid)', name);
    // kazoo's rule for every child: what follows the first "-" (the whole name when there is none).
    super(client, path, name, { data: false, member: (child) => child.slice(child.indexOf('-') + 1) }, options);
  }

  protected get data(): string {
    return '';
  }
}

