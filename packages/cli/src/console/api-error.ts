/**
 * The console's failures as HTTP answers: one class carrying the status, the stable code of api-types.ts and,
 * for a version conflict, the node as it is now. A ZooKeeper refusal keeps ZooKeeper's code name, so the page
 * can say the server's error in words.
 */
import { ZkError } from '@zkts/protocol';

import type { ApiErrorBody, ConsoleErrorCode, NodeInfo } from './api-types.js';

export class ConsoleApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly current: NodeInfo | undefined;

  constructor(status: number, code: ConsoleErrorCode | string, message: string, options?: { cause?: unknown; current?: NodeInfo }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ConsoleApiError';
    this.status = status;
    this.code = code;
    this.current = options?.current;
  }

  body(): ApiErrorBody {
    const error = { code: this.code, message: this.message };
    return this.current === undefined ? { error } : { error, current: this.current };
  }
}

export function badRequest(message: string): ConsoleApiError {
  return new ConsoleApiError(400, 'BAD_REQUEST', message);
}

/** The HTTP status a ZooKeeper refusal maps to: the caller's mistake (4xx) or the service being away (503). */
const STATUS_BY_ZK_CODE: Readonly<Record<string, number>> = {
  NO_NODE: 404,
  NODE_EXISTS: 409,
  NOT_EMPTY: 409,
  BAD_VERSION: 409,
  NO_CHILDREN_FOR_EPHEMERALS: 409,
  NO_AUTH: 403,
  AUTH_FAILED: 403,
  INVALID_ACL: 400,
  BAD_ARGUMENTS: 400,
  INVALID_ARGUMENT: 400,
  UNIMPLEMENTED: 501,
  CONNECTION_LOSS: 503,
  SESSION_EXPIRED: 503,
  OPERATION_TIMEOUT: 504,
  NOT_READ_ONLY: 503,
};

/** Any error a route threw, as the one class the HTTP layer answers with. */
export function toApiError(error: unknown): ConsoleApiError {
  if (error instanceof ConsoleApiError) return error;
  if (error instanceof ZkError) {
    return new ConsoleApiError(STATUS_BY_ZK_CODE[error.code] ?? 500, error.code, error.message, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ConsoleApiError(500, 'INTERNAL', message, { cause: error });
}
