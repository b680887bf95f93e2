/**
 * Curator's DownInstanceManager: instances a caller reported errors for (ServiceProvider.noteError) are left out
 * once they reach `errorThreshold` errors, until `timeoutMs` after the first of them. As in Curator the window
 * starts at the first error and is not extended by later ones, and expired entries are purged at most every
 * `timeoutMs / 2`. Instances are recognised by name and id (Curator: every field), so an update does not clear
 * the record.
 */
import type { Clock } from '@zkts/protocol';
import { checkOptions, rules, type OptionRules } from '../internal/index.js';
import type { ServiceInstance } from './instance.js';

/** When an instance counts as down (Curator's DownInstancePolicy). */
export interface DownInstancePolicy {
  /** How long an instance's errors count, from its first. Default 30,000 ms. */
  timeoutMs?: number;
  /** Errors within the window that make an instance down. Default 2. */
  errorThreshold?: number;
}

const POLICY_RULES: OptionRules<DownInstancePolicy> = { timeoutMs: rules.number(0), errorThreshold: rules.integer(1) };

interface Status {
  readonly since: number;
  errors: number;
}

const key = (instance: ServiceInstance<unknown>): string => `${instance.name}/${instance.id}`;

export class DownInstances {
  private readonly timeoutMs: number;
  private readonly threshold: number;
  private readonly clock: Clock;
  private readonly statuses = new Map<string, Status>();
  private lastPurge: number;

  constructor(policy: DownInstancePolicy, clock: Clock) {
    checkOptions('ServiceProvider', policy, POLICY_RULES, 'downInstancePolicy');
    this.timeoutMs = policy.timeoutMs ?? 30_000;
    this.threshold = policy.errorThreshold ?? 2;
    this.clock = clock;
    this.lastPurge = clock.now();
  }

  /** One more error of `instance`. */
  add(instance: ServiceInstance<unknown>): void {
    this.purge();
    const k = key(instance);
    const status = this.statuses.get(k) ?? { since: this.clock.now(), errors: 0 };
    status.errors++;
    this.statuses.set(k, status);
  }

  /** Whether `instance` may be handed out (fewer errors than the threshold within the window). */
  isUp(instance: ServiceInstance<unknown>): boolean {
    this.purge();
    const status = this.statuses.get(key(instance));
    return status === undefined || status.errors < this.threshold;
  }

  private purge(): void {
    const now = this.clock.now();
    if (now - this.lastPurge < this.timeoutMs / 2) return;
    this.lastPurge = now;
    for (const [k, status] of this.statuses) if (now - status.since >= this.timeoutMs) this.statuses.delete(k);
  }
}
