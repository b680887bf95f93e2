// The one interface every Node client runner implements, so that the workloads in workloads.ts are the same
// code for all of them. Operations are callback-shaped (`done(err)`) because two of the three clients are
// callback APIs: wrapping them in promises would charge the peers for overhead that their users don't pay,
// while adapting zkts's promise to a callback costs one `.then`.

export type Done = (error: Error | null) => void;

export interface BenchLock {
  acquire(): Promise<void>;
  release(): Promise<void>;
}

export interface BenchSession {
  getData(path: string, done: Done): void;
  /** getData leaving a one-shot data watch; `onEvent` runs when the watch fires. */
  getDataWatch(path: string, onEvent: () => void, done: Done): void;
  setData(path: string, data: Uint8Array, done: Done): void;
  create(path: string, data: Uint8Array, done: Done): void;
  delete(path: string, done: Done): void;
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
  connect(connectString: string): Promise<BenchSession>;
  /** Watch events this process's sessions received so far (for events-per-handoff). */
  watchEventsDelivered(): number;
}

/** Promise form of a callback operation, for set-up code outside the timed loops. */
export function call(op: (done: Done) => void): Promise<void> {
  return new Promise((resolve, reject) => op((e) => (e ? reject(e) : resolve())));
}
