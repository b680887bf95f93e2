// The one interface every Node client runner implements, so that the workloads in workloads.ts are the same
// code for all of them. Operations are callback-shaped (`done(err)`) because two of the three clients are
// callback APIs: wrapping them in promises would charge the peers for overhead that their users don't pay,
// while adapting zkts's promise to a callback costs one `.then`.

export type Done = (error: Error | null) => void;
/** A completion that also hands over the result (kept by the caller: the heap rows measure it). */
export type Got<T> = (error: Error | null, result?: T) => void;

export interface ConnectOptions {
  /** Largest frame accepted, in bytes (the rows with 1 MiB replies raise it; each client's own knob). */
  maxPacket?: number;
  /** ms requested; default 30,000 (the watch-replay row asks for 60,000 to outlast its time away). */
  sessionTimeout?: number;
}

export interface BenchLock {
  acquire(): Promise<void>;
  release(): Promise<void>;
}

export interface BenchSession {
  getData(path: string, done: Done): void;
  /**
   * getData leaving a one-shot data watch; `onEvent` runs when the watch fires (for a node event only: session
   * events that some clients also hand every watcher are not the watch firing).
   */
  getDataWatch(path: string, onEvent: () => void, done: Done): void;
  setData(path: string, data: Uint8Array, done: Done): void;
  create(path: string, data: Uint8Array, done: Done): void;
  delete(path: string, done: Done): void;
  /** getData handing over the data bytes (the large-reply row checks their length and keeps nothing). */
  getDataBytes(path: string, got: Got<Uint8Array>): void;
  /** getChildren handing over the list as the client returns it (the 100k-children row keeps it). */
  getChildrenList(path: string, got: Got<readonly string[]>): void;
  /** Number of children of `path` (set-up and polling only, never timed). */
  countChildren(path: string): Promise<number>;
  close(): Promise<void>;
  /** A fresh lock contender on `dir` (absent for clients without a lock in the comparison). */
  lock?: (dir: string) => BenchLock;
}

export interface BenchClient {
  /** Short id used on the command line and in results. */
  readonly id: string;
  /** What the table calls it. */
  readonly label: string;
  /** Name of the lock implementation, when `lock` is provided. */
  readonly lockLabel?: string;
  connect(connectString: string, options?: ConnectOptions): Promise<BenchSession>;
  /** Watch events this process's sessions received so far (for events-per-handoff). */
  watchEventsDelivered(): number;
  /**
   * Subscribes a no-op to every diagnostics channel the client publishes; returns the unsubscribe (only a
   * client that publishes some has it: the tracing row, tracing.ts).
   */
  observe?: () => () => void;
  /**
   * Enables @zkts/opentelemetry with the OpenTelemetry SDK (exporting nowhere); resolves with what disables it
   * (only zkts: the tracing row's third side).
   */
  instrument?: () => Promise<() => Promise<void>>;
}

/** Promise form of a callback operation, for set-up code outside the timed loops. */
export function call(op: (done: Done) => void): Promise<void> {
  return new Promise((resolve, reject) => op((e) => (e ? reject(e) : resolve())));
}
