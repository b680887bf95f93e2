// What the clients of a test asked the servers under one path, and what came back, from the client's own
// `zkts:request` trace: a failing fault test prints the history of the node it found out of place instead of
// leaving a reader to guess which path of the recipe lost track of it.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

import type { RequestTrace } from '@zkts/protocol';

export interface RequestRecord {
  /** ms since the history started */
  at: number;
  op: string;
  path: string;
  sessionId: bigint;
  server: string | undefined;
  attempt: number;
  outcome: string;
}

const MAX_RECORDS = 200_000;

function outcomeOf(trace: RequestTrace): string {
  if (trace.errorCode !== undefined) return `error ${trace.errorCode}`;
  const result = trace.result as { path?: unknown; children?: unknown } | null | undefined;
  if (typeof result?.path === 'string') return `-> ${result.path}`;
  if (Array.isArray(result?.children)) return `-> [${(result.children as string[]).join(',')}]`;
  return 'ok';
}

export class RequestHistory implements Disposable {
  private readonly records: RequestRecord[] = [];
  private readonly started = Date.now();
  private readonly onEnd = (message: unknown): void => {
    const trace = message as RequestTrace;
    if (trace.path === undefined || !trace.path.startsWith(this.under)) return;
    if (this.records.length >= MAX_RECORDS) return;
    this.records.push({
      at: Date.now() - this.started, op: trace.op, path: trace.path, sessionId: trace.sessionId, server: trace.server,
      attempt: trace.attempt, outcome: outcomeOf(trace),
    });
  };

  constructor(private readonly under: string) {
    subscribe('tracing:zkts:request:asyncEnd', this.onEnd);
  }

  /** Every request whose path or outcome mentions `needle`, oldest first, one line each. */
  about(needle: string): string[] {
    return this.records
      .filter((r) => r.path.includes(needle) || r.outcome.includes(needle))
      .map((r) => `${r.at} ms 0x${r.sessionId.toString(16)} ${r.server ?? '-'} ${r.op} ${r.path} #${r.attempt} ${r.outcome}`);
  }

  [Symbol.dispose](): void {
    unsubscribe('tracing:zkts:request:asyncEnd', this.onEnd);
  }
}
