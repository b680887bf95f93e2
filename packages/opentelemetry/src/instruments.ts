/**
 * The metric instruments, created once per instrumentation from its Meter, and the state behind the observable
 * ones (requests in flight, clients per state, cache sizes), which is read only when a reader collects.
 */
import { ValueType, type Attributes, type Counter, type Histogram, type Meter } from '@opentelemetry/api';

import { ATTR, DB_SYSTEM, DURATION_BUCKETS, LOCK_BUCKETS, METRIC } from './names.js';

export interface Instruments {
  readonly operationDuration: Histogram;
  /** Requests open per operation (observed as `zookeeper.client.active_requests`). */
  readonly active: Map<string, number>;
  requestStarted(op: string): void;
  requestsEnded(op: string): void;
  readonly reconnects: Counter;
  readonly connectionFailures: Counter;
  readonly sessionExpirations: Counter;
  readonly sessionRenewals: Counter;
  readonly authAttempts: Counter;
  readonly watchEvents: Counter;
  readonly watchDeliveryDelay: Histogram;
  readonly lockWaitDuration: Histogram;
  readonly lockHoldDuration: Histogram;
  /** Clients per state, as seen since the instrumentation was enabled. */
  readonly states: StateCounts;
  /** Nodes each cache held after its last resync, by recipe and path. */
  readonly cacheSizes: Map<string, { readonly attributes: Attributes; size: number }>;
  /**
   * Zeroes what is observed as counts (requests in flight, clients per state). The callbacks stay: a metric
   * reader keeps an asynchronous instrument's last observation, so a count left at 1 would read 1 forever.
   */
  close(): void;
}

/**
 * Clients per session state. Only transitions seen are counted, so a client that was already connected when
 * the instrumentation started is counted from its next transition on: its first `from` finds nothing to take
 * away, and a count never goes below zero. `idle` (not started) and `closed` (gone) are not states a client is
 * in for a dashboard, so they are left out.
 */
export class StateCounts {
  readonly counts = new Map<string, number>();

  move(from: string | undefined, to: string | undefined): void {
    if (from !== undefined && from !== to) {
      const n = this.counts.get(from) ?? 0;
      if (n > 0) this.counts.set(from, n - 1);
    }
    if (to !== undefined && to !== from && to !== 'idle' && to !== 'closed') this.counts.set(to, (this.counts.get(to) ?? 0) + 1);
  }
}

export function createInstruments(meter: Meter): Instruments {
  const seconds = (name: string, description: string, buckets: readonly number[]): Histogram =>
    meter.createHistogram(name, { description, unit: 's', valueType: ValueType.DOUBLE, advice: { explicitBucketBoundaries: [...buckets] } });
  const counter = (name: string, description: string, unit: string): Counter => meter.createCounter(name, { description, unit, valueType: ValueType.INT });

  const active = new Map<string, number>();
  const activeGauge = meter.createObservableUpDownCounter(METRIC.activeRequests, {
    description: 'ZooKeeper requests sent or queued and not yet answered.',
    unit: '{request}',
    valueType: ValueType.INT,
  });
  const observeActive = (result: { observe(value: number, attributes?: Attributes): void }): void => {
    for (const [op, count] of active) result.observe(count, { [ATTR.dbSystem]: DB_SYSTEM, [ATTR.dbOperation]: op });
  };
  activeGauge.addCallback(observeActive);
  const states = new StateCounts();
  const cacheSizes = new Map<string, { readonly attributes: Attributes; size: number }>();
  const stateGauge = meter.createObservableUpDownCounter(METRIC.clientState, {
    description: 'ZooKeeper clients in each session state (idle and closed clients are not counted).',
    unit: '{client}',
    valueType: ValueType.INT,
  });
  const cacheGauge = meter.createObservableGauge(METRIC.cacheSize, {
    description: 'Nodes a cache recipe held after its last resync.',
    unit: '{node}',
    valueType: ValueType.INT,
  });
  const observeStates = (result: { observe(value: number, attributes?: Attributes): void }): void => {
    for (const [state, count] of states.counts) result.observe(count, { [ATTR.clientState]: state });
  };
  const observeCaches = (result: { observe(value: number, attributes?: Attributes): void }): void => {
    for (const { attributes, size } of cacheSizes.values()) result.observe(size, attributes);
  };
  stateGauge.addCallback(observeStates);
  cacheGauge.addCallback(observeCaches);

  return {
    operationDuration: seconds(METRIC.operationDuration, 'Duration of ZooKeeper client operations, from the call to the reply.', DURATION_BUCKETS),
    active,
    requestStarted(op) {
      active.set(op, (active.get(op) ?? 0) + 1);
    },
    requestsEnded(op) {
      const n = active.get(op);
      if (n !== undefined && n > 0) active.set(op, n - 1);
    },
    reconnects: counter(METRIC.reconnects, 'Reconnections a ZooKeeper client began (after a lost connection, a contested session, an expiry, a move), by reason.', '{reconnect}'),
    connectionFailures: counter(METRIC.connectionFailures, 'Dials to a ZooKeeper server that failed.', '{failure}'),
    sessionExpirations: counter(METRIC.sessionExpirations, 'ZooKeeper sessions that expired.', '{expiration}'),
    sessionRenewals: counter(METRIC.sessionRenewals, 'ZooKeeper sessions renewed after an expiry.', '{renewal}'),
    authAttempts: counter(METRIC.authAttempts, 'Authentications on a connection, by scheme and outcome.', '{attempt}'),
    watchEvents: counter(METRIC.watchEvents, 'Watch events delivered to the application, by type.', '{event}'),
    watchDeliveryDelay: seconds(
      METRIC.watchDeliveryDelay,
      "Time from a watch event's arrival to the moment its listeners are called.",
      DURATION_BUCKETS,
    ),
    lockWaitDuration: seconds(METRIC.lockWaitDuration, 'Time from acquire() to the lock being held or the wait failing.', LOCK_BUCKETS),
    lockHoldDuration: seconds(METRIC.lockHoldDuration, 'Time a lock was held, until released or lost.', LOCK_BUCKETS),
    states,
    cacheSizes,
    close() {
      for (const op of active.keys()) active.set(op, 0);
      for (const state of states.counts.keys()) states.counts.set(state, 0);
    },
  };
}
