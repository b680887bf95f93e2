// Public API of the zkts client (docs/architecture.md).
export { ZkClient, type ReconfigOptions } from './client.js';
export { createClient, connect, reconfig } from './factories.js';
// The names of the events ZkClient's on/once/off take.
export type { ClientEvents, ClientEventListener } from './events.js';
export { Acls, digestId } from './acl.js';
export { Perms } from '../codec/records/constants.js';
export { validatePath, joinPath, parentPath, basename } from './paths.js';
export { parseConnectString, type HostAddress, type ParsedConnectString } from './connect-string.js';
export { MultiError } from './multi-error.js';
export { digestMd5, type DigestMd5Options } from './sasl/digest-md5.js';
export type { SaslExchange, SaslMechanism, SaslOptions, SaslServer } from './sasl/mechanism.js';
export type {
  ACL,
  AclProvider,
  AdminCalls,
  BackgroundWriteEvent,
  BackgroundWriteKind,
  BackgroundWriteOptions,
  CallOptions,
  CheckWatchType,
  ClientOptions,
  CloseReport,
  CreateMode,
  CreateOptions,
  Data,
  EventTypeName,
  GetChildrenResult,
  GetDataResult,
  Logger,
  MultiOpOutcome,
  Op,
  OpResult,
  PendingWrite,
  PersistentWatch,
  ReadOp,
  ReadResult,
  RecipeErrorPolicy,
  RemoveWatchType,
  RemoveWatcherType,
  SessionState,
  StateChange,
  WatchEvent,
  WatchListener,
  WatchOptions,
  Watched,
} from './types.js';
export type { Stat, StatJSON } from './stat.js';
export { CancelScope, cancelScope, raceCancel, sleep, type CancelOptions } from './cancel.js';
// Observability: the diagnostics_channel names and message types (docs/guides/observability.md), and stats().
export {
  ChannelNames,
  type AuthMessage,
  type ChannelName,
  type ConnectionEvent,
  type ConnectionMessage,
  type DialReason,
  type ErrorSummary,
  type RequestTrace,
  type SessionEvent,
  type SessionMessage,
  type StateMessage,
  type WatchEventMessage,
} from './diagnostics.js';
export type { ClientStats } from './stats.js';
export type { SessionCounters } from './session/session-report.js';
export type { WatchCounts } from './watches/watch-manager.js';
export { systemClock, type Clock, type ClockTimer, type ClockTimerOptions } from './clock.js';
export { exponentialBackoff, noRetry, isRetryable, type RetryPolicy, type BackoffOptions } from './retry.js';
// The unknown-option policy and the value formatting of argument errors, for code built on the client
// (@zkts/recipes checks its own options objects the same way).
export { checkOptionKeys, describeValue, UNKNOWN_OPTION_WARNING } from '../errors/option-keys.js';
