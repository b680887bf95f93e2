// What demo workers tell the demo over IPC, and the names both sides agree on.

export const FAIR_LOCK = 'fair-lock';
export const RW_LOCK = 'rw-lock';
export const COUNTER = 'counter';
export const COUNTER_LOCK = 'counter-lock';
/** Short, so a SIGKILLed holder's session (and its lock node) expires within seconds. */
export const SESSION_TIMEOUT_MS = 3_000;

export type WorkerMessage =
  | { kind: 'connected'; name: string; sessionId: string }
  | { kind: 'acquired'; name: string; token: string }
  | { kind: 'progress'; name: string; step: number; of: number }
  | { kind: 'releasing'; name: string }
  | { kind: 'released'; name: string }
  | { kind: 'incremented'; name: string; value: number }
  | { kind: 'failed'; name: string; error: string };

/** What the demo proves, printed at the end as `DEMO_SUMMARY {json}` (the test reads it). */
export interface DemoSummary {
  ok: boolean;
  fair: { grantOrder: string[]; queueOrder: string[]; inOrder: boolean; tokens: string[]; tokensIncreasing: boolean };
  kill: { victim: string; victimToken: string; heir: string; heirToken: string; passedOn: boolean; handoffMs: number };
  rw: { readers: string[]; maxConcurrentReaders: number; writerWaitedForReaders: boolean };
  counter: { workers: number; value: number };
  durationMs: number;
  problems: string[];
}
