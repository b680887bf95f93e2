/**
 * Why a server could not be reached, in words, as soon as the library reports it (`onConnectFailure`):
 * without this a dead or mistyped --server looked like a 15 s hang ending in "not connected". A refused
 * connection or a name that does not resolve is final for a command-line tool: when every host of the
 * connect string has answered that way in one pass, the CLI stops instead of waiting out its timeout. A failed
 * TLS handshake is final too: the next attempt meets the same certificate (tls-failures.ts says what went wrong
 * in words); and so is a port that answers HTTP (the AdminServer's, given for the client port). The library's
 * own first-connect rule (UnreachableError) knows no TLS, so the CLI keeps this one decision here.
 */
import type { ConnectAttempt, ZkError } from '@zkts/protocol';

import { tlsFailureText } from './tls-failures.js';

export interface FailureReason {
  /** The socket's error code (ECONNREFUSED, ENOTFOUND, a TLS code…), else the ZkError's code. */
  readonly code: string;
  readonly text: string;
  /** Retrying within a few seconds will not change it. */
  readonly final: boolean;
}

const WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'name lookup failed (temporarily)',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
};

/**
 * Codes that retrying within a few seconds will not change: nothing listens there, or the name does not
 * resolve (EAI_AGAIN too: it is also what a machine without a reachable DNS server answers every time).
 */
const FINAL = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

export function failureReason(error: ZkError): FailureReason {
  // Said by the library's frame reader in words already ("not a ZooKeeper client port (an HTTP server: …)").
  if (error.code === 'NOT_ZOOKEEPER') return { code: error.code, text: error.message, final: true };
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code === undefined) return { code: error.code, text: error.message, final: false };
  const message = typeof cause?.message === 'string' ? cause.message : error.message;
  const tls = tlsFailureText(code, message);
  if (tls !== undefined) return { code, text: tls, final: true };
  const words = WORDS[code];
  if (words !== undefined) return { code, text: words, final: FINAL.has(code) };
  return { code, text: message.replace(/\s+/g, ' ').trim(), final: FINAL.has(code) };
}

/** Why the CLI stopped before its timeout: every host failed in one of the final ways, named by kind. */
export function hopelessSummary(attempts: readonly ConnectAttempt[]): string {
  const kinds = new Set(attempts.map((a) => failureKind(a.error)));
  if (kinds.size === 1 && kinds.has('tls')) return 'the TLS handshake failed with every host';
  if (kinds.size === 1 && kinds.has('foreign')) return attempts.length === 1 ? 'it is not a ZooKeeper client port' : 'no host is a ZooKeeper client port';
  const phrases = [
    ...(kinds.has('refused') ? ['refused', 'is unknown'] : []),
    ...(kinds.has('tls') ? ['failed the TLS handshake'] : []),
    ...(kinds.has('foreign') ? ['is not a ZooKeeper client port'] : []),
  ];
  return `every host ${phrases.slice(0, -1).join(', ')} or ${phrases[phrases.length - 1] ?? ''}`;
}

function failureKind(error: ZkError): 'refused' | 'tls' | 'foreign' {
  if (error.code === 'NOT_ZOOKEEPER') return 'foreign';
  return failureReason(error).text.startsWith('TLS: ') ? 'tls' : 'refused';
}

export function describeAttempts(attempts: readonly ConnectAttempt[]): string {
  // The library names the attempt under way when a connect gives up, so this is a timeout before any dial.
  if (attempts.length === 0) return 'no host was tried yet';
  return attempts.map((a) => `${a.host}: ${failureReason(a.error).text} [${failureReason(a.error).code}]`).join('; ');
}

export function attemptRecords(attempts: readonly ConnectAttempt[]): { host: string; code: string; message: string }[] {
  return attempts.map((a) => ({ host: a.host, code: failureReason(a.error).code, message: failureReason(a.error).text }));
}

/**
 * Follows the failures of one connect: `add` returns true once every host (as the library names them,
 * `host:port` or `[v6]:port`) has most recently failed in a final way.
 */
export class FailureTracker {
  private readonly hosts: ReadonlySet<string>;
  private readonly latest = new Map<string, ConnectAttempt>();

  constructor(hosts: Iterable<string>) {
    this.hosts = new Set(hosts);
  }

  add(attempt: ConnectAttempt): boolean {
    this.latest.set(attempt.host, attempt);
    for (const host of this.hosts) {
      const last = this.latest.get(host);
      if (last === undefined || !failureReason(last.error).final) return false;
    }
    return this.hosts.size > 0;
  }

  /** The latest failure of each host, in connect-string order. */
  attempts(): ConnectAttempt[] {
    return [...this.hosts].flatMap((host) => this.latest.get(host) ?? []);
  }
}

/** How the library names a host in its attempts. */
export function hostLabel(address: { host: string; port: number }): string {
  return address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
}
