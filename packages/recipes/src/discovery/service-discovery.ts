/**
 * Service discovery compatible with Curator's curator-x-discovery: instances of a service live at
 * `<basePath>/<name>/<id>` as Curator's JSON, so Java services registered through Curator and Node services
 * registered here find each other.
 *
 * Registration keeps the node with a PersistentNode: a DYNAMIC instance is an ephemeral node made again after
 * someone deletes it and in the session a renewal opens (Curator re-registers on every reconnect instead), a
 * STATIC or PERMANENT instance a persistent node, a DYNAMIC_SEQUENTIAL one a protected ephemeral-sequential node
 * (`<id>` plus a sequence, behind Curator's `_c_<uuid>-` prefix so a lost create reply is found again instead of
 * leaving a second instance: Curator itself writes it unprotected and loses track of its name). As Curator does,
 * registering replaces a node already at the instance's path (deleted first, so that watchers see the new
 * registration), and unregister and close delete the node whatever its type.
 */
import { joinPath, type Clock, type ACL } from '@zkts/protocol';

import type { CacheClient } from '../cache/index.js';
import { RecipeArgumentError, RecipeClosedError, ServiceNotRegisteredError } from '../errors.js';
import {
  aclRule, withAcl,
  checkArg, checkClientAndPath, checkOptions, checkWait, childrenOrEmpty, isConnectionLoss, rules, type OptionRules, isNoNode, isServerCode, readNodes, retrying, type RecipeClient, type WaitOptions,
} from '../internal/index.js';
import { PersistentNode, type PersistentNodeMode } from '../nodes/index.js';
import { checkSegment, type ServiceInstance, type ServiceType } from './instance.js';
import { JsonInstanceSerializer, type InstanceSerializer } from './serializer.js';
import { closeHooks, ServiceCache, type ServiceCacheOptions } from './service-cache.js';
import { ServiceProvider, type ServiceProviderOptions } from './service-provider.js';

/** What service discovery needs of a client: the recipes' calls and the caches' watches (any ZkClient fits). */
export type DiscoveryClient = RecipeClient & CacheClient;

/** Options of a ServiceDiscovery. */
export interface ServiceDiscoveryOptions<T> {
  /** Default: `new JsonInstanceSerializer()` (Curator's default format, JSON payloads). */
  serializer?: InstanceSerializer<T>;
  /**
   * Instances that cannot be read (InstanceFormatError) are left out of queryForInstances() and the caches and
   * reported here. Default: a process warning.
   */
  onError?: (error: Error) => void;
  /** Time source of the registrations' retry pauses (default: the system clock). */
  clock?: Clock;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
}

const MODES: Record<ServiceType, PersistentNodeMode> = {
  DYNAMIC: 'ephemeral',
  DYNAMIC_SEQUENTIAL: 'ephemeral-sequential',
  STATIC: 'persistent',
  PERMANENT: 'persistent',
};

interface Registration<T> {
  instance: ServiceInstance<T>;
  readonly node: PersistentNode;
}

const OPTION_RULES: OptionRules<ServiceDiscoveryOptions<unknown>> = {
  serializer: rules.withMethods('an InstanceSerializer', 'serialize', 'deserialize'), onError: rules.function, clock: rules.clock,
  acl: aclRule,
};

/** What register/update/unregister take: an instance object (its fields are the serializer's to check). */
const INSTANCE = { expect: 'a service instance object', test: rules.object.test };

function defaultOnError(error: Error): void {
  process.emitWarning(error, { code: 'ZKTS_DISCOVERY' });
}

/** Registers and finds service instances in Curator's layout and format (Curator's ServiceDiscovery). */
export class ServiceDiscovery<T = unknown> implements AsyncDisposable {
  readonly client: DiscoveryClient;
  readonly basePath: string;
  readonly serializer: InstanceSerializer<T>;
  /** Reports instances that could not be read (see ServiceDiscoveryOptions.onError). */
  readonly onError: (error: Error) => void;
  private readonly clock: Clock | undefined;
  private readonly registrations = new Map<string, Registration<T>>();
  private readonly opened = new Set<AsyncDisposable>();
  private closed = false;

  constructor(client: DiscoveryClient, basePath: string, options: ServiceDiscoveryOptions<T> = {}) {
    checkClientAndPath('ServiceDiscovery', client, basePath, 'basePath');
    checkOptions('ServiceDiscovery', options, OPTION_RULES as OptionRules<ServiceDiscoveryOptions<T>>);
    this.client = client = withAcl(client, options.acl);
    this.basePath = basePath;
    this.serializer = options.serializer ?? new JsonInstanceSerializer<T>();
    const onError = options.onError ?? defaultOnError;
    this.onError = (e) => {
      try {
        onError(e);
      } catch {
        // an error handler that throws has nowhere left to report to
      }
    };
    this.clock = options.clock;
  }

  /** `<basePath>/<name>`: the directory of a service's instances. */
  pathForName(name: string): string {
    checkSegment('a service name', name);
    return joinPath(this.basePath, name);
  }

  /** `<basePath>/<name>/<id>`: where an instance's node is (a DYNAMIC_SEQUENTIAL node adds a prefix and a sequence). */
  pathForInstance(name: string, id: string): string {
    checkSegment('an instance id', id);
    return joinPath(this.pathForName(name), id);
  }

  /**
   * Registers an instance and keeps it registered until unregisterService() or close(); resolves with its node's
   * path once the node exists. Registering an id again replaces the earlier registration (the same name and
   * type: its data is updated in place). A node already at the path that is not our session's is deleted
   * first, once; if another live registrant makes it again, this waits for that node to go rather than fight
   * over it (pass a `timeout`). `timeout`/`signal` give up the wait and the registration.
   */
  async registerService(instance: ServiceInstance<T>, options: WaitOptions = {}): Promise<string> {
    checkArg('ServiceDiscovery.registerService', 'instance', instance, INSTANCE);
    checkWait('ServiceDiscovery.registerService', options);
    this.checkOpen();
    const path = this.pathForInstance(instance.name, instance.id);
    const data = this.serializer.serialize(instance);
    const earlier = this.registrations.get(instance.id);
    if (earlier !== undefined) {
      if (earlier.instance.name === instance.name && earlier.instance.serviceType === instance.serviceType) {
        earlier.instance = instance;
        await earlier.node.setData(data);
        return earlier.node.awaitCreated(options);
      }
      await this.unregisterService(earlier.instance);
    }
    const node = new PersistentNode(this.client, path, {
      mode: MODES[instance.serviceType],
      data,
      ...(this.clock === undefined ? {} : { clock: this.clock }),
    });
    const registration: Registration<T> = { instance, node };
    this.registrations.set(instance.id, registration);
    try {
      if (instance.serviceType !== 'DYNAMIC_SEQUENTIAL') await this.replaceForeign(path);
      node.start();
      return await node.awaitCreated(options);
    } catch (e) {
      if (this.registrations.get(instance.id) === registration) this.registrations.delete(instance.id);
      await node.close();
      throw e;
    }
  }

  /**
   * Writes a registered instance's new fields to its node (and keeps them for every re-registration). The name,
   * id and type must stay: for another name or type, register it again. ServiceNotRegisteredError if the id
   * was not registered here.
   */
  async updateService(instance: ServiceInstance<T>): Promise<void> {
    checkArg('ServiceDiscovery.updateService', 'instance', instance, INSTANCE);
    this.checkOpen();
    const registration = this.registrations.get(instance.id);
    if (registration === undefined) throw new ServiceNotRegisteredError(`service instance ${instance.id} is not registered by this discovery`);
    if (registration.instance.name !== instance.name || registration.instance.serviceType !== instance.serviceType) {
      throw new RecipeArgumentError(`service instance ${instance.id}: updateService cannot change its name or type; register it again`);
    }
    const data = this.serializer.serialize(instance);
    registration.instance = instance;
    await registration.node.setData(data);
  }

  /** Stops keeping an instance and deletes its node (retried across reconnects). Nothing happens for an id not registered here. */
  async unregisterService(instance: Pick<ServiceInstance<unknown>, 'id'>): Promise<void> {
    checkArg('ServiceDiscovery.unregisterService', 'instance', instance, INSTANCE);
    checkArg('ServiceDiscovery.unregisterService', 'instance.id', instance.id, rules.nonEmptyString);
    const registration = this.registrations.get(instance.id);
    if (registration === undefined) return;
    this.registrations.delete(instance.id);
    await registration.node.close();
  }

  /** The instances registered through this discovery, as last registered or updated. */
  registered(): ServiceInstance<T>[] {
    return [...this.registrations.values()].map((r) => r.instance);
  }

  /** The node path of an instance registered here while its node exists (DYNAMIC_SEQUENTIAL: the generated name). */
  registeredPath(id: string): string | undefined {
    checkArg('ServiceDiscovery.registeredPath', 'id', id, rules.string);
    return this.registrations.get(id)?.node.currentPath;
  }

  /** The names of all services (the children of the base path), sorted; none while the base path does not exist. */
  async queryForNames(): Promise<string[]> {
    return (await childrenOrEmpty(this.client, this.basePath)).sort();
  }

  /** Every readable instance of a service, in node-name order; unreadable ones go to `onError`. */
  async queryForInstances(name: string): Promise<ServiceInstance<T>[]> {
    const dir = this.pathForName(name);
    const children = (await childrenOrEmpty(this.client, dir)).sort();
    const instances: ServiceInstance<T>[] = [];
    for (const node of await readNodes(this.client, children.map((c) => joinPath(dir, c)))) {
      try {
        instances.push(this.serializer.deserialize(node.data, node.path));
      } catch (e) {
        this.onError(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return instances;
  }

  /**
   * One instance, or null. Looks at `<base>/<name>/<id>`, then for a DYNAMIC_SEQUENTIAL node of that id (which
   * Curator's lookup misses). An unreadable node rejects with InstanceFormatError.
   */
  async queryForInstance(name: string, id: string): Promise<ServiceInstance<T> | null> {
    const path = this.pathForInstance(name, id);
    const [direct] = await readNodes(this.client, [path]);
    if (direct !== undefined) return this.serializer.deserialize(direct.data, direct.path);
    const dir = this.pathForName(name);
    const sequential = new RegExp(`^(?:_c_[0-9a-f-]{36}-)?${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:\\d{10}|-\\d{9})$`);
    const candidates = (await childrenOrEmpty(this.client, dir)).filter((c) => sequential.test(c)).sort();
    for (const node of await readNodes(this.client, candidates.map((c) => joinPath(dir, c)))) {
      const instance = this.serializer.deserialize(node.data, node.path);
      if (instance.id === id) return instance;
    }
    return null;
  }

  /** A cache of one service's instances (call start() on it); closed with this discovery. */
  serviceCache(name: string, options: ServiceCacheOptions = {}): ServiceCache<T> {
    this.checkOpen();
    const cache = new ServiceCache<T>(this, name, options);
    this.track(cache);
    return cache;
  }

  /** A provider of one service's instances (call start() on it); closed with this discovery. */
  serviceProvider(name: string, options: ServiceProviderOptions<T> = {}): ServiceProvider<T> {
    this.checkOpen();
    const provider = new ServiceProvider<T>(this, name, options);
    this.track(provider);
    return provider;
  }

  /** Closes the caches and providers made here and unregisters every instance registered here. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const opened = [...this.opened];
    this.opened.clear();
    const registrations = [...this.registrations.values()];
    this.registrations.clear();
    await Promise.all([
      ...opened.map((o) => o[Symbol.asyncDispose]()),
      ...registrations.map((r) => r.node.close()),
    ]);
  }

  /** The same as close(), for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private track(resource: ServiceCache<T> | ServiceProvider<T>): void {
    this.opened.add(resource);
    closeHooks.set(resource, () => this.opened.delete(resource));
  }

  private checkOpen(): void {
    if (this.closed) throw new RecipeClosedError(`the service discovery at ${this.basePath} is closed`);
  }

  /**
   * Deletes a node at the instance's path that is not our session's (a registration of an earlier run, or of
   * another process with the same id), as Curator deletes before it creates. The delete names the version we
   * saw, so a node changed meanwhile is looked at again rather than removed blindly.
   */
  private async replaceForeign(path: string): Promise<void> {
    const { client } = this;
    for (;;) {
      const stat = await retrying(client, () => client.exists(path));
      if (stat === null || (stat.ephemeralOwner !== 0n && stat.ephemeralOwner === client.sessionId)) return;
      try {
        await client.delete(path, { version: stat.version });
        return;
      } catch (e) {
        if (isNoNode(e)) return;
        if (isConnectionLoss(e)) await client.connected();
        else if (!isServerCode(e, 'BAD_VERSION')) throw e;
      }
    }
  }
}
