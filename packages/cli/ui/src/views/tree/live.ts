/**
 * The page's one EventSource on /api/events, shared by whatever listens: opened with the first listener,
 * closed with the last. A dropped connection that comes back is a `reset` (changes in between were missed).
 */
import type { ChangeEvent, ResetEvent, StateEvent } from '../../../../src/console/api-types.js';

export interface LiveListener {
  change(event: ChangeEvent): void;
  /** Read again what is shown. */
  reset(reason: string): void;
  /** `live` once the console watches the tree, else the console session's state or `reconnecting`. */
  status(status: string): void;
}

const listeners = new Set<LiveListener>();
let source: EventSource | undefined;
let lastStatus = 'connecting';
let lost = false;

function setStatus(status: string): void {
  lastStatus = status;
  for (const l of listeners) l.status(status);
}

function parse<T>(event: Event): T | undefined {
  try {
    return JSON.parse((event as MessageEvent<string>).data) as T;
  } catch {
    return undefined;
  }
}

function open(): void {
  const es = new EventSource('/api/events', { withCredentials: true });
  source = es;
  es.addEventListener('change', (event) => {
    const body = parse<ChangeEvent>(event);
    if (body !== undefined) for (const l of listeners) l.change(body);
  });
  es.addEventListener('reset', (event) => {
    const reason = parse<ResetEvent>(event)?.reason ?? 'reset';
    for (const l of listeners) l.reset(reason);
  });
  es.addEventListener('state', (event) => {
    const body = parse<StateEvent>(event);
    const state = body?.state ?? 'unknown';
    const connected = state === 'connected' || state === 'connected-read-only';
    // A state event follows the console arming its watch or a session change: what is shown may be stale.
    if (connected) for (const l of listeners) l.reset(`the console is ${state}`);
    lost = false;
    setStatus(!connected ? state : body?.live === false ? 'no live updates' : 'live');
  });
  es.addEventListener('error', () => {
    if (!lost) setStatus('reconnecting');
    lost = true;
  });
}

export function subscribeLive(listener: LiveListener): () => void {
  listeners.add(listener);
  if (source === undefined) open();
  listener.status(lastStatus);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && source !== undefined) {
      source.close();
      source = undefined;
      lastStatus = 'connecting';
    }
  };
}
