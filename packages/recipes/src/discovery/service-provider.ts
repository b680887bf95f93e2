/**
 * Hands out instances of one service (Curator's ServiceProvider): a ServiceCache of the service, the caller's
 * filters, then the down-instance record (instances reported with noteError()) and the `enabled` flag, in that
 * order as in Curator, and a strategy that picks one of those left (round-robin by default).
 */
import { systemClock, type Clock } from '@zkts/protocol';

import { checkArg, checkOptions, checkWait, rules, type OptionRules, type WaitOptions } from '../internal/index.js';
import { DownInstances, type DownInstancePolicy } from './down-instances.js';
import type { ServiceInstance } from './instance.js';
import { closeHooks, DISCOVERY, ServiceCache, type ServiceCacheOptions } from './service-cache.js';
import type { ServiceDiscovery } from './service-discovery.js';
import { RoundRobinStrategy, type ProviderStrategy } from './strategies.js';

/** Keeps an instance when it returns true (Curator's InstanceFilter). */
export type InstanceFilter<T> = (instance: ServiceInstance<T>) => boolean;

/** Options of a ServiceProvider. */
export interface ServiceProviderOptions<T> extends ServiceCacheOptions {
  /** Default: a new RoundRobinStrategy, as Curator. */
  strategy?: ProviderStrategy<T>;
  /** Applied in order before the down-instance and enabled checks. */
  filters?: readonly InstanceFilter<T>[];
  /** When noteError() makes an instance down. Default: 2 errors within 30 s. */
  downInstancePolicy?: DownInstancePolicy;
  /** Time source of the down-instance window (default: the system clock). */
  clock?: Clock;
}

const OPTION_RULES: OptionRules<ServiceProviderOptions<unknown>> = {
  watchMode: rules.oneOf(['auto', 'one-shot']),
  strategy: rules.withMethods('a ProviderStrategy', 'getInstance'),
  filters: rules.arrayOf(rules.function),
  downInstancePolicy: rules.object,
  clock: rules.clock,
};

/** Picks instances of one service by a strategy, skipping filtered, disabled and down ones (Curator's ServiceProvider). */
export class ServiceProvider<T = unknown> implements AsyncDisposable {
  /** The service's name. */
  readonly name: string;
  readonly strategy: ProviderStrategy<T>;
  /** The cache the instances come from. */
  readonly cache: ServiceCache<T>;
  private readonly filters: readonly InstanceFilter<T>[];
  private readonly down: DownInstances;

  constructor(discovery: ServiceDiscovery<T>, name: string, options: ServiceProviderOptions<T> = {}) {
    checkArg('ServiceProvider', 'discovery', discovery, DISCOVERY);
    checkArg('ServiceProvider', 'name', name, rules.nodeName);
    checkOptions('ServiceProvider', options, OPTION_RULES as OptionRules<ServiceProviderOptions<T>>);
    this.name = name;
    this.strategy = options.strategy ?? new RoundRobinStrategy<T>();
    this.filters = [...(options.filters ?? [])];
    this.down = new DownInstances(options.downInstancePolicy ?? {}, options.clock ?? systemClock);
    this.cache = new ServiceCache<T>(discovery, name, options.watchMode === undefined ? {} : { watchMode: options.watchMode });
  }

  /** Starts following the service; resolves once its instances are known. */
  async start(options: WaitOptions = {}): Promise<this> {
    checkWait('ServiceProvider.start', options);
    await this.cache.start(options);
    return this;
  }

  /** Every instance that passes the filters, is enabled and is not down, in node-name order. */
  getAllInstances(): ServiceInstance<T>[] {
    return this.cache.instances().filter((i) => this.filters.every((f) => f(i)) && this.down.isUp(i) && i.enabled);
  }

  /** One instance by the strategy, or null when none is available. Ask again for each use rather than keeping it. */
  getInstance(): ServiceInstance<T> | null {
    return this.strategy.getInstance(this.getAllInstances());
  }

  /** Reports that using `instance` failed: past the policy's threshold it is left out for the policy's window. */
  noteError(instance: ServiceInstance<T>): void {
    checkArg('ServiceProvider.noteError', 'instance', instance, rules.object);
    this.down.add(instance);
  }

  /** Stops following the service. */
  async close(): Promise<void> {
    closeHooks.get(this)?.();
    await this.cache.close();
  }

  /** The same as close(), for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
