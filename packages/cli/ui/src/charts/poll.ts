/**
 * The live views' refresh loop: fetch now, then again `everyMs` after each answer (never two in flight, so a
 * slow server is not piled on), stopped when the view goes away. The last failure is kept beside the last
 * good value, so a view keeps showing what it had while saying why it is stale.
 */
import { useEffect, useState } from 'preact/hooks';

export interface Polled<T> {
  readonly value: T | undefined;
  readonly error: Error | undefined;
}

export function usePoll<T>(load: (signal: AbortSignal) => Promise<T>, everyMs: number, key = ''): Polled<T> {
  const [state, setState] = useState<Polled<T>>({ value: undefined, error: undefined });
  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ value: undefined, error: undefined });
    const tick = async (): Promise<void> => {
      try {
        const value = await load(abort.signal);
        if (!abort.signal.aborted) setState({ value, error: undefined });
      } catch (error) {
        if (!abort.signal.aborted) setState((old) => ({ value: old.value, error: error instanceof Error ? error : new Error(String(error)) }));
      }
      if (!abort.signal.aborted) timer = setTimeout(() => void tick(), everyMs);
    };
    void tick();
    return () => {
      abort.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
    // `load` is a fresh closure on every render; `key` says when what it loads changed.
  }, [everyMs, key]);
  return state;
}
