/**
 * Exit codes of the `zkts` command. Stable: scripts branch on them. Values follow sysexits(3) where one fits
 * (64 usage, 65 bad input data, 66 unreadable input, 69 service unavailable, 75 temporary failure), and use
 * small numbers for the ZooKeeper answers a script most often tests for.
 */
import { ProtocolError, ZkError } from '@zkts/protocol';

export const ExitCode = {
  OK: 0,
  ERROR: 1,
  NO_NODE: 2,
  NODE_EXISTS: 3,
  BAD_VERSION: 4,
  NO_AUTH: 5,
  NOT_EMPTY: 6,
  SERVER_ERROR: 7,
  PARTIAL: 8,
  USAGE: 64,
  DATA_ERROR: 65,
  NO_INPUT: 66,
  UNAVAILABLE: 69,
  TIMEOUT: 75,
  LOCK_LOST: 76,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** One line per code, for `zkts --help` and the README. */
export const EXIT_CODE_TABLE: readonly (readonly [ExitCode, string])[] = [
  [ExitCode.OK, 'success (lock: the command succeeded; lock exits with the command\'s own status)'],
  [ExitCode.ERROR, 'unexpected error'],
  [ExitCode.NO_NODE, 'the node does not exist (NONODE)'],
  [ExitCode.NODE_EXISTS, 'the node already exists (NODEEXISTS)'],
  [ExitCode.BAD_VERSION, 'version mismatch (BADVERSION)'],
  [ExitCode.NO_AUTH, 'not authorized, or authentication failed (NOAUTH, AUTHFAILED)'],
  [ExitCode.NOT_EMPTY, 'the node has children (NOTEMPTY)'],
  [ExitCode.SERVER_ERROR, 'any other error the server answered with'],
  [ExitCode.PARTIAL, 'partial output: some nodes could not be read (ls -R, tree); each is reported on stderr'],
  [ExitCode.USAGE, 'usage error: unknown command or option, bad argument'],
  [ExitCode.DATA_ERROR, 'malformed input (capture, transcript, undecodable traffic, damaged txn log or snapshot)'],
  [ExitCode.NO_INPUT, 'an input file cannot be read'],
  [ExitCode.UNAVAILABLE, 'cannot connect to ZooKeeper, or the session was lost'],
  [ExitCode.TIMEOUT, 'timed out (--timeout), including waiting for a lock'],
  [ExitCode.LOCK_LOST, 'lock: the lock was lost while the command ran (the command got SIGTERM)'],
];

/** The name of an exit code (`NO_NODE`, `USAGE`…), the `code` of a JSON error; `ERROR` for lock's own statuses. */
export function exitCodeName(code: number): string {
  for (const [name, value] of Object.entries(ExitCode)) if (value === code) return name;
  return 'ERROR';
}

/** An error the CLI reports as one line, with the exit code it chose. */
export class CliError extends Error {
  /** Usually an ExitCode; `lock` also uses sh's 126/127/128+N for its command. */
  readonly exitCode: number;
  /** Extra fields for the JSON form of the error (e.g. the connect attempts). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(exitCode: number, message: string, options?: ErrorOptions & { details?: Record<string, unknown> }) {
    super(message, options);
    this.exitCode = exitCode;
    this.details = options?.details;
  }

  override get name(): string {
    return 'CliError';
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(ExitCode.USAGE, message);
  }
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (!(error instanceof ZkError)) return ExitCode.ERROR;
  // Damaged bytes of any kind (traffic, txn logs, snapshots: PROTOCOL_ERROR and the FILE_* codes).
  if (error instanceof ProtocolError) return ExitCode.DATA_ERROR;
  switch (error.code) {
    case 'NO_NODE':
      return ExitCode.NO_NODE;
    case 'NODE_EXISTS':
      return ExitCode.NODE_EXISTS;
    case 'BAD_VERSION':
      return ExitCode.BAD_VERSION;
    case 'NO_AUTH':
    case 'AUTH_FAILED':
    case 'SESSION_CLOSED_REQUIRE_SASL_AUTH':
      return ExitCode.NO_AUTH;
    case 'NOT_EMPTY':
      return ExitCode.NOT_EMPTY;
    case 'TIMEOUT':
      return ExitCode.TIMEOUT;
    case 'CONNECTION_LOSS':
    case 'SESSION_EXPIRED':
    case 'CLIENT_CLOSED':
      return ExitCode.UNAVAILABLE;
    case 'INVALID_ARGUMENT':
      return ExitCode.USAGE;
    case 'PROTOCOL_ERROR':
      return ExitCode.DATA_ERROR;
    case 'ABORTED':
      return ExitCode.ERROR;
    default:
      return ExitCode.SERVER_ERROR;
  }
}
