/**
 * What two or more recipe families share: the client contract, error and state predicates, retry rules, waits,
 * argument checks, node-name parsing, node helpers, guaranteed cleanup and per-client state, change feeds, test
 * hooks and the tracing channels. The package entry exports none of it except the two contract types every
 * recipe takes (RecipeClient, WaitOptions), ContenderKind (through locks/) and the channels' names and context
 * types; families import it only through this file, and it imports no family.
 */
export type {
  CallOptions, CreateMode, Data, Op, OpResult, PersistentWatch, RecipeClient, SessionState, Stat, StateChange, WatchEvent,
} from './recipe-client.js';
export {
  isConnectionLoss, isExpiry, isNoNode, isNodeExists, isServerCode, isSessionGone, isUnimplemented,
} from './error-kinds.js';
export { isConnectedState, isFinalState, isLive } from './session-state.js';
export { reconnected, retrying, retryingAcrossSessions } from './retry.js';
export { checkpoint, nested, openScope, within, type Scope, type WaitOptions } from './wait.js';
export {
  checkArg, checkClientAndPath, checkNodeName, checkOptions, checkPath, checkWait, clientRule, knownOptions, MAX_TIMEOUT_MS, rules,
  WAIT_RULES, type OptionRules, type Rule,
} from './validate.js';
export {
  compareContenders, compareSequence, formatSequence, indexOfName, kazooPrefix, parseContender, parseSequence,
  protectedPrefix, sortContenders, type Contender, type ContenderKind, type MarkerTable,
} from './names.js';
export { aclRule, lostOnFor, withAcl } from './recipe-acl.js';
export { childrenAfterSync, childrenOrEmpty, ensureDir, ensurePersistentDir, readNodes, utf8, type NodeRead } from './nodes.js';
export { removeNode, removeSoon, settleCleanups, settleRemovals, type CleanupTarget } from './cleanup.js';
export { clientState, type ClientState } from './client-state.js';
export { ChangeFeed } from './change-feed.js';
export { KeepAlive, RETRY_PAUSE_MS, type Pass, type Recover } from './keep-alive.js';
export { Pulse } from './pulse.js';
export { setTestHooks, testHooksOf, type TestHooks } from './test-hooks.js';
export {
  beginTrace, byteLength, cacheResync, electionTerm, finishTrace, lockHold, lockWait, queuePut, queueTake, RECIPE_CHANNELS, traced,
  type CacheLoadReason, type CacheResyncTrace, type ElectionTermTrace, type LockHoldTrace, type LockKind, type LockWaitTrace,
  type QueueTrace,
} from './diagnostics.js';
