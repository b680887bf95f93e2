/**
 * ZooKeeper's KeeperException codes (org.apache.zookeeper.KeeperException.Code, 3.8), each with the stable
 * string code zkts reports. A number missing from this table is still a valid server answer: it maps to
 * `SERVER_ERROR` (see `serverCodeName`), never to a throw.
 */
export const KeeperCode = {
  OK: 0,
  SYSTEM_ERROR: -1,
  RUNTIME_INCONSISTENCY: -2,
  DATA_INCONSISTENCY: -3,
  CONNECTION_LOSS: -4,
  MARSHALLING_ERROR: -5,
  UNIMPLEMENTED: -6,
  OPERATION_TIMEOUT: -7,
  BAD_ARGUMENTS: -8,
  NEW_CONFIG_NO_QUORUM: -13,
  RECONFIG_IN_PROGRESS: -14,
  UNKNOWN_SESSION: -12,
  API_ERROR: -100,
  NO_NODE: -101,
  NO_AUTH: -102,
  BAD_VERSION: -103,
  NO_CHILDREN_FOR_EPHEMERALS: -108,
  NODE_EXISTS: -110,
  NOT_EMPTY: -111,
  SESSION_EXPIRED: -112,
  INVALID_CALLBACK: -113,
  INVALID_ACL: -114,
  AUTH_FAILED: -115,
  SESSION_MOVED: -118,
  NOT_READ_ONLY: -119,
  EPHEMERAL_ON_LOCAL_SESSION: -120,
  NO_WATCHER: -121,
  REQUEST_TIMEOUT: -122,
  RECONFIG_DISABLED: -123,
  SESSION_CLOSED_REQUIRE_SASL_AUTH: -124,
  QUOTA_EXCEEDED: -125,
  THROTTLED_OP: -127,
} as const;

/** The name of a KeeperException code (`'NO_NODE'`…), as ServerError.code carries it. */
export type KeeperCodeName = keyof typeof KeeperCode;

const NAME_BY_NUMBER = new Map<number, KeeperCodeName>(
  (Object.entries(KeeperCode) as [KeeperCodeName, number][]).map(([name, num]) => [num, name]),
);

/**
 * Human text per code, close to the Java client's so people can search for it. NO_AUTH departs from Java's
 * "Not authenticated": the server answers it to sessions that did authenticate but whose identities the ACL
 * does not grant the permission, and the Java words send them looking for a login problem.
 */
const MESSAGES: Record<KeeperCodeName, string> = {
  OK: 'ok',
  SYSTEM_ERROR: 'system error',
  RUNTIME_INCONSISTENCY: 'runtime inconsistency',
  DATA_INCONSISTENCY: 'data inconsistency',
  CONNECTION_LOSS: 'connection loss',
  MARSHALLING_ERROR: 'marshalling error',
  UNIMPLEMENTED: 'unimplemented (is the feature enabled on the server?)',
  OPERATION_TIMEOUT: 'operation timeout',
  BAD_ARGUMENTS: 'bad arguments',
  NEW_CONFIG_NO_QUORUM: 'no quorum of new config is connected',
  RECONFIG_IN_PROGRESS: 'another reconfiguration is in progress',
  UNKNOWN_SESSION: 'unknown session',
  API_ERROR: 'API error',
  NO_NODE: 'no node',
  NO_AUTH: "not permitted: the session's identities lack the permission",
  BAD_VERSION: 'bad version',
  NO_CHILDREN_FOR_EPHEMERALS: 'ephemeral nodes may not have children',
  NODE_EXISTS: 'node exists',
  NOT_EMPTY: 'directory not empty',
  SESSION_EXPIRED: 'session expired',
  INVALID_CALLBACK: 'invalid callback',
  INVALID_ACL: 'invalid ACL',
  AUTH_FAILED: 'authentication failed',
  SESSION_MOVED: 'session moved to another server',
  NOT_READ_ONLY: 'not a read-only call (the server is in read-only mode)',
  EPHEMERAL_ON_LOCAL_SESSION: 'ephemeral node on a local session',
  NO_WATCHER: 'no such watcher',
  REQUEST_TIMEOUT: 'request timeout',
  RECONFIG_DISABLED: 'reconfig is disabled',
  SESSION_CLOSED_REQUIRE_SASL_AUTH: 'session closed: the server requires SASL authentication',
  QUOTA_EXCEEDED: 'quota exceeded',
  THROTTLED_OP: 'operation throttled by the server',
};

/** The stable name of a server code; numbers outside the table are `SERVER_ERROR`. */
export function serverCodeName(code: number): KeeperCodeName | 'SERVER_ERROR' {
  return NAME_BY_NUMBER.get(code) ?? 'SERVER_ERROR';
}

/** A human sentence for a KeeperException code, as the Java client words it. */
export function serverCodeMessage(code: number): string {
  const name = NAME_BY_NUMBER.get(code);
  return name === undefined ? `unknown server error ${code}` : MESSAGES[name];
}
