/**
 * Every attribute key and metric name the package writes, in one place: the README's table documents these and
 * a unit test checks the two agree. OpenTelemetry's database, server, error and messaging conventions are used
 * where they fit; what ZooKeeper has and they do not name lives under `zookeeper.*`.
 */

/** `db.system.name` for every request: not a value OpenTelemetry registers, so documented as ours. */
export const DB_SYSTEM = 'zookeeper';

export const ATTR = {
  // OpenTelemetry semantic conventions.
  dbSystem: 'db.system.name',
  dbOperation: 'db.operation.name',
  dbBatchSize: 'db.operation.batch.size',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
  messagingSystem: 'messaging.system',
  messagingOperationType: 'messaging.operation.type',
  messagingOperationName: 'messaging.operation.name',
  messagingDestination: 'messaging.destination.name',
  messagingMessageId: 'messaging.message.id',
  messagingBodySize: 'messaging.message.body.size',
  // ZooKeeper's own.
  path: 'zookeeper.path',
  sessionId: 'zookeeper.session.id',
  xid: 'zookeeper.xid',
  requestSize: 'zookeeper.request.size',
  responseSize: 'zookeeper.response.size',
  attempt: 'zookeeper.request.attempt',
  multiOps: 'zookeeper.multi.ops',
  recipe: 'zookeeper.recipe',
  lockKind: 'zookeeper.lock.kind',
  lockNode: 'zookeeper.lock.node',
  lockQueuePosition: 'zookeeper.lock.queue_position',
  lockFencingToken: 'zookeeper.lock.fencing_token',
  lockReleaseReason: 'zookeeper.lock.release_reason',
  electionNode: 'zookeeper.election.node',
  electionParticipant: 'zookeeper.election.participant_id',
  electionEndReason: 'zookeeper.election.end_reason',
  cacheResyncReason: 'zookeeper.cache.resync_reason',
  cacheSize: 'zookeeper.cache.size',
  clientState: 'zookeeper.client.state',
  reconnectReason: 'zookeeper.reconnect.reason',
  authScheme: 'zookeeper.auth.scheme',
  authOutcome: 'zookeeper.auth.outcome',
  watchEventType: 'zookeeper.watch.event_type',
} as const;

export const METRIC = {
  operationDuration: 'db.client.operation.duration',
  activeRequests: 'zookeeper.client.active_requests',
  clientState: 'zookeeper.client.state',
  reconnects: 'zookeeper.client.reconnects',
  connectionFailures: 'zookeeper.client.connection.failures',
  sessionExpirations: 'zookeeper.client.session.expirations',
  sessionRenewals: 'zookeeper.client.session.renewals',
  authAttempts: 'zookeeper.client.auth.attempts',
  watchEvents: 'zookeeper.client.watch.events',
  watchDeliveryDelay: 'zookeeper.client.watch.delivery_delay',
  lockWaitDuration: 'zookeeper.lock.wait.duration',
  lockHoldDuration: 'zookeeper.lock.hold.duration',
  cacheSize: 'zookeeper.cache.size',
} as const;

/** Span names of the recipes' operations (a request span is named after its operation: 'getData'). */
export const SPAN = {
  lockWait: 'lock.wait',
  lockHold: 'lock.hold',
  electionTerm: 'election.term',
  cacheResync: 'cache.resync',
  queuePut: 'queue.put',
  queueTake: 'queue.take',
} as const;

/**
 * Bucket boundaries (seconds) OpenTelemetry's database conventions advise for `db.client.operation.duration`,
 * used for every duration histogram here; a View of the application overrides them.
 */
export const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10] as const;

/** Lock waits and holds run longer than requests: up to minutes. */
export const LOCK_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300] as const;
