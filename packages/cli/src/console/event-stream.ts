/**
 * One page's Server-Sent Events connection: changes batched at most every 100 ms into `event: change`, a
 * heartbeat comment every 15 s so proxies and the browser keep the connection, `event: state` when the
 * console's session changes state. The queue is bounded: a page that cannot keep up (or a flood of changes)
 * gets one `event: reset` telling it to read what it shows again, instead of the console holding unbounded
 * memory for it.
 */
import type { ServerResponse } from 'node:http';

import type { ChangeEvent, ResetEvent, StateEvent } from './api-types.js';
import type { ChangeListener, ChangeType } from './change-hub.js';

export interface EventStreamOptions {
  /** ms between batches; default 100. */
  readonly batchMs?: number;
  /** ms between heartbeats; default 15000. */
  readonly heartbeatMs?: number;
  /** Changes queued before the page is told to reset instead; default 2000. */
  readonly maxQueued?: number;
}

type Change = ChangeEvent['changes'][number];

export class EventStream implements ChangeListener {
  private queue: Change[] = [];
  private pendingReset: string | undefined;
  /** The socket's buffer is full: write nothing more until it drains. */
  private blocked = false;
  private closed = false;
  private readonly batchTimer: NodeJS.Timeout;
  private readonly heartbeatTimer: NodeJS.Timeout;
  private readonly maxQueued: number;

  constructor(private readonly response: ServerResponse, options: EventStreamOptions = {}) {
    this.maxQueued = options.maxQueued ?? 2000;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    // The browser reconnects after 2 s when the connection drops.
    this.write('retry: 2000\n\n');
    this.batchTimer = setInterval(() => this.flush(), options.batchMs ?? 100);
    this.heartbeatTimer = setInterval(() => {
      if (!this.blocked) this.write(': heartbeat\n\n');
    }, options.heartbeatMs ?? 15_000);
    response.on('drain', () => {
      this.blocked = false;
      this.flush();
    });
  }

  change(type: ChangeType, path: string): void {
    if (this.closed || this.pendingReset !== undefined) return;
    if (this.queue.length >= this.maxQueued) {
      this.reset(`more than ${this.maxQueued} changes waited for this page`);
      return;
    }
    this.queue.push({ type, path });
  }

  reset(reason: string): void {
    if (this.closed) return;
    this.queue = [];
    this.pendingReset = reason;
  }

  state(state: string, live: boolean): void {
    const event: StateEvent = { state, live };
    this.send('state', event);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.batchTimer);
    clearInterval(this.heartbeatTimer);
    this.queue = [];
  }

  /** What is queued, for tests of the bound. */
  get queued(): number {
    return this.queue.length;
  }

  private flush(): void {
    if (this.closed || this.blocked) return;
    if (this.pendingReset !== undefined) {
      const event: ResetEvent = { reason: this.pendingReset };
      this.pendingReset = undefined;
      this.send('reset', event);
      return;
    }
    if (this.queue.length === 0) return;
    const event: ChangeEvent = { changes: this.queue };
    this.queue = [];
    this.send('change', event);
  }

  private send(name: string, body: unknown): void {
    // JSON.stringify escapes every newline inside strings, so one `data:` line carries the whole event.
    this.write(`event: ${name}\ndata: ${JSON.stringify(body)}\n\n`);
  }

  private write(text: string): void {
    if (this.closed || this.response.destroyed) return;
    if (!this.response.write(text)) this.blocked = true;
  }
}
