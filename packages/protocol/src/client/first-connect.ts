/**
 * The first connect() of a client fails at once when nothing is there to connect to, instead of waiting out its
 * timeout (30 s by default): once every host of the connect string has most recently failed in a way retrying
 * soon will not change, it rejects with UnreachableError naming each host's failure. As nats.js does for a first
 * connect: a typo in the connect string, or a server that is not running, is said in milliseconds. A program
 * that starts before its ZooKeeper (compose files, tests) sets `waitForServer: true` and keeps the old wait.
 * Only the first connect: once a session existed, a refused reconnect is a server restarting, and the client
 * retries (failure-semantics guide).
 *
 * Also connect()'s wait itself. Without a caller's signal (the usual case) it is one promise with one timer and
 * two listeners; the general wait (a CancelScope's AbortController and listeners, Promise.race, four promises)
 * is kept for a signal. A pool opening hundreds of sessions at once holds one wait per handshake in flight, and
 * whatever they hold survives the young generation's collections that run meanwhile, which grows it (RSS).
 */
import { UnreachableError, type ConnectAttempt, type ZkError } from '../errors/errors.js';
import type { Clock } from './clock.js';
import { isConnected } from './session/session-state.js';
import { waitConnected, waitTimed, type ObservableSession } from './state-waits.js';
import type { CallOptions } from './types.js';

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

interface FailureSource {
  onConnectFailure(listener: (attempt: ConnectAttempt) => void): () => void;
}

/** Records `attempt`; the error to give up with once every host's latest failure is final, else null. */
function unreachable(latest: Map<string, ConnectAttempt>, hosts: readonly string[], attempt: ConnectAttempt): UnreachableError | null {
  latest.set(attempt.host, attempt);
  const all = hosts.map((host) => latest.get(host));
  return all.every((a) => a !== undefined && isFinalConnectFailure(a.error)) ? new UnreachableError(all as ConnectAttempt[]) : null;
}

/** Follows the connect failures of `hosts` (labelled as the session labels them) until stopped. */
export function watchUnreachable(source: FailureSource, hosts: readonly string[]): UnreachableWatch {
  const latest = new Map<string, ConnectAttempt>();
  let stop = (): void => undefined;
  const failed = new Promise<never>((_resolve, reject) => {
    stop = source.onConnectFailure((attempt) => {
      const error = unreachable(latest, hosts, attempt);
      if (error === null) return;
      stop();
      reject(error);
    });
  });
  return { failed, stop: () => stop() };
}

/**
 * connect()'s wait: resolves once connected; rejects when the session ends, with ConnectTimeoutError after
 * `timeout` ms (0: no limit) or on `options.signal`, and, given `hosts`, with UnreachableError once each of them
 * failed finally. `start` runs once the failures are followed (it starts the session).
 */
export function awaitConnect(session: ObservableSession & FailureSource, options: CallOptions, timeout: number, clock: Clock, hosts: readonly string[] | null, start: () => void): Promise<void> {
  if (options.signal === undefined) {
    const wait = plainWait(session, timeout, clock, hosts);
    start();
    return wait;
  }
  const watch = hosts === null ? null : watchUnreachable(session, hosts);
  start();
  const connected = waitConnected(session, { timeout, signal: options.signal }, clock);
  return watch === null ? connected : Promise.race([connected, watch.failed]).finally(() => watch.stop());
}

/** The wait without a signal: waitTimed, ended early by UnreachableError once every host failed finally. */
function plainWait(session: ObservableSession & FailureSource, timeout: number, clock: Clock, hosts: readonly string[] | null): Promise<void> {
  if (isConnected(session.state)) return Promise.resolve();
  if (session.isOver) return Promise.reject(session.terminalError());
  if (hosts === null) return waitTimed(session, timeout, clock);
  let latest: Map<string, ConnectAttempt> | null = null;
  return waitTimed(session, timeout, clock, (fail) =>
    session.onConnectFailure((attempt) => {
      const error = unreachable((latest ??= new Map()), hosts, attempt);
      if (error !== null) fail(error);
    }),
  );
}
