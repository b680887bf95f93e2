/**
 * How a ServiceProvider picks one instance from those that pass its filters: Curator's RandomStrategy,
 * RoundRobinStrategy (the default) and StickyStrategy, with the same rules. Each gets the current list on every
 * call, so a strategy never hands out an instance that is gone.
 */
import { checkArg, checkOptions, rules } from '../internal/index.js';
import type { ServiceInstance } from './instance.js';

/** Picks one instance from the current ones, or null when there are none (Curator's ProviderStrategy). */
export interface ProviderStrategy<T> {
  /** One of `instances` (the provider's current, filtered list), or null. */
  getInstance(instances: readonly ServiceInstance<T>[]): ServiceInstance<T> | null;
}

const INSTANCES = rules.arrayOf(rules.object);

/** Options of a RandomStrategy. */
export interface RandomStrategyOptions {
  /** A number in [0, 1), as Math.random (the default); tests pass a seeded one. */
  random?: () => number;
}

/** Any instance, uniformly at random (Curator's RandomStrategy). */
export class RandomStrategy<T = unknown> implements ProviderStrategy<T> {
  private readonly random: () => number;

  constructor(options: RandomStrategyOptions = {}) {
    checkOptions('RandomStrategy', options, { random: rules.function });
    this.random = options.random ?? Math.random;
  }

  /** A uniformly random one of `instances`, or null when there are none. */
  getInstance(instances: readonly ServiceInstance<T>[]): ServiceInstance<T> | null {
    checkArg('RandomStrategy.getInstance', 'instances', instances, INSTANCES);
    if (instances.length === 0) return null;
    // Clamped, so a random source that returns 1 cannot index past the end.
    return instances[Math.min(instances.length - 1, Math.floor(this.random() * instances.length))] ?? null;
  }
}

/** Each call the next instance, by a counter modulo the current count (Curator's RoundRobinStrategy). */
export class RoundRobinStrategy<T = unknown> implements ProviderStrategy<T> {
  private next = 0;

  /** The next of `instances` by the counter, or null when there are none. */
  getInstance(instances: readonly ServiceInstance<T>[]): ServiceInstance<T> | null {
    checkArg('RoundRobinStrategy.getInstance', 'instances', instances, INSTANCES);
    if (instances.length === 0) return null;
    const index = this.next;
    this.next = (this.next + 1) % Number.MAX_SAFE_INTEGER;
    return instances[index % instances.length] ?? null;
  }
}

/**
 * The same instance for as long as it is there; when it is gone (or filtered out), another one picked by
 * `master` (Curator's StickyStrategy). The instance is recognised by name and id, so an update of its fields does
 * not move a caller elsewhere (Curator compares every field), and the current version of it is returned.
 */
export class StickyStrategy<T = unknown> implements ProviderStrategy<T> {
  private readonly master: ProviderStrategy<T>;
  private ours: { name: string; id: string } | undefined;
  private picks = -1;

  constructor(master: ProviderStrategy<T>) {
    checkArg('StickyStrategy', 'master', master, rules.withMethods('a ProviderStrategy', 'getInstance'));
    this.master = master;
  }

  /** Incremented each time a new instance is picked (starts at -1): tells when the instance changed. */
  get instanceNumber(): number {
    return this.picks;
  }

  /** Our instance (its current version) while it is among `instances`, else the master's pick. */
  getInstance(instances: readonly ServiceInstance<T>[]): ServiceInstance<T> | null {
    checkArg('StickyStrategy.getInstance', 'instances', instances, INSTANCES);
    const ours = this.ours;
    const current = ours === undefined ? undefined : instances.find((i) => i.id === ours.id && i.name === ours.name);
    if (current !== undefined) return current;
    const picked = this.master.getInstance(instances);
    this.ours = picked === null ? undefined : { name: picked.name, id: picked.id };
    if (picked !== null) this.picks++;
    return picked;
  }
}
