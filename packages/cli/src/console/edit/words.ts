/**
 * ZooKeeper's refusals in words a console user acts on: the server's code is kept (the page shows it), the
 * message says what was tried and what the code means for it.
 */
import { ZkError } from '@zkts/protocol';

import { ConsoleApiError, toApiError } from '../api-error.js';
import type { NodeInfo } from '../api-types.js';

const HINTS: Readonly<Record<string, string>> = {
  NO_AUTH: "the node's ACL does not grant the console's session this permission",
  NO_NODE: 'the node (or its parent) does not exist',
  NODE_EXISTS: 'a node with that path already exists',
  NOT_EMPTY: 'the node has children: delete it recursively',
  BAD_VERSION: 'the node changed since it was read',
  NO_CHILDREN_FOR_EPHEMERALS: 'an ephemeral node cannot have children',
  INVALID_ACL: 'the server refused this ACL (an auth entry needs an authenticated session, a digest id needs user:hash)',
  UNIMPLEMENTED: 'the server does not support this (TTL nodes need zookeeper.extendedTypesEnabled=true)',
  BAD_ARGUMENTS: 'the server refused the arguments',
  CONNECTION_LOSS: "the console's connection to ZooKeeper was lost: the write may or may not have happened",
  SESSION_EXPIRED: "the console's session expired",
};

/**
 * `error` (thrown by the client during `action`) as the console's answer, with the server's code kept;
 * `detail` adds what the console learnt since (e.g. the version the node is at now).
 */
export function refusal(action: string, error: unknown, extra: { current?: NodeInfo; detail?: string } = {}): ConsoleApiError {
  if (!(error instanceof ZkError)) return toApiError(error);
  const mapped = toApiError(error);
  const { current, detail } = extra;
  const hint = [HINTS[error.code], detail].filter((s) => s !== undefined).join(': ');
  const message = `${action}: ${error.message}${hint === '' ? '' : ` (${hint})`}`;
  return new ConsoleApiError(mapped.status, mapped.code, message, current === undefined ? { cause: error } : { cause: error, current });
}

export function isCode(error: unknown, code: string): boolean {
  return error instanceof ZkError && error.code === code;
}
