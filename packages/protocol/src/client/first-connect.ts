/**
 * The first connect() of a client fails at once when nothing is there to connect to, instead of waiting out its
 * timeout (30 s by default): once every host of the connect string has most recently failed in a way retrying
 * soon will not change, it rejects with UnreachableError naming each host's failure. As nats.js does for a first
 * connect: a typo in the connect string, or a server that is not running, is said in milliseconds. A program
 * that starts before its ZooKeeper (compose files, tests) sets `waitForServer: true` and keeps the old wait.
 * Only the first connect: once a session existed, a refused reconnect is a server restarting, and the client
 * retries (failure-semantics guide).
 */
import { UnreachableError, type ConnectAttempt, type ZkError } from '../errors/errors.js';

/**
 * Socket codes that mean nothing listens there or the name does not exist. EAI_AGAIN (a DNS server that did not
 * answer) and timeouts are left out: those can change within seconds.
 */
const FINAL_SOCKET_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);

/** A failure the next attempt will meet again: refused, unknown host, or a peer that is not ZooKeeper at all. */
export function isFinalConnectFailure(error: ZkError): boolean {
  if (error.code === 'NOT_ZOOKEEPER') return true;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && FINAL_SOCKET_CODES.has(code);
}

export interface UnreachableWatch {
  /** Rejects with UnreachableError when every host has failed finally; never resolves. */
  readonly failed: Promise<never>;
  stop(): void;
}

/** Follows the connect failures of `hosts` (labelled as the session labels them) until stopped. */
export function watchUnreachable(
  source: { onConnectFailure(listener: (attempt: ConnectAttempt) => void): () => void },
  hosts: readonly string[],
): UnreachableWatch {
  const latest = new Map<string, ConnectAttempt>();
  let stop = (): void => undefined;
  const failed = new Promise<never>((_resolve, reject) => {
    stop = source.onConnectFailure((attempt) => {
      latest.set(attempt.host, attempt);
      const all = hosts.map((host) => latest.get(host));
      if (all.every((a) => a !== undefined && isFinalConnectFailure(a.error))) {
        stop();
        reject(new UnreachableError(all as ConnectAttempt[]));
      }
    });
  });
  return { failed, stop: () => stop() };
}
