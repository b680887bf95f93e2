/**
 * The ZooKeeper client: {@link connect} opens a session and resolves with a {@link ZkClient}, whose calls
 * (`create`, `getData`, `setData`, `multi`, watches…) return promises and take `{ signal, timeout }`. Errors are
 * {@link ZkError}s with a stable `code`; {@link Acls} builds ACLs.
 *
 * @packageDocumentation
 * @mergeModuleWith <project>
 */
// @zkts/protocol: the client. What a program talking to ZooKeeper needs (the client, its options and result
// types, the error taxonomy, ACL and path helpers, cancellation) and nothing of the wire codec: records, Jute and
// framing live in '@zkts/protocol/codec', the conversation decoder in '@zkts/protocol/inspect'. Every name is
// listed on purpose; test/unit/exports.test.ts pins the lists of all three entries.
export * from './client/index.js';
export {
  ZkError,
  ServerError,
  ProtocolError,
  ConnectionLossError,
  SessionExpiredError,
  ClientClosedError,
  AuthFailedError,
  SessionClosedRequireSaslAuthError,
  TimeoutError,
  ConnectTimeoutError,
  UnreachableError,
  NotZooKeeperError,
  AbortError,
  InvalidArgumentError,
  serverKeeperCode,
  type ConnectAttempt,
  type ZkErrorCode,
} from './errors/errors.js';
// For `err.keeperCode === KeeperCode.NO_NODE`, and the names `code` takes.
export { KeeperCode, type KeeperCodeName } from './errors/codes.js';
// For code built on the client the way @zkts/recipes is: error families whose `instanceof` works across
// duplicate installs, and a caller's aborted signal as the same ZkError the client would reject with.
export { isBrandedInstance, abortErrorFrom } from './errors/errors.js';
