/**
 * The session's "stop" signal (ends the host loop's back-off sleep and the read-only probe when the session
 * ends), with its AbortController made only when something asks for the signal. A session that connects at
 * once and stays connected never does, and in a pool of thousands idle sessions an AbortController each
 * (its signal, an EventTarget, carries two Maps and a hidden class of its own) was the largest object after
 * the socket.
 */
export class LazyStopSignal {
  private controller: AbortController | null = null;
  private stopped = false;

  /** Aborted once `abort()` has run, even when asked for afterwards. */
  get signal(): AbortSignal {
    if (this.controller === null) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort();
    }
    return this.controller.signal;
  }

  abort(): void {
    this.stopped = true;
    this.controller?.abort();
  }
}
