/**
 * The connection deadlines of every session on one clock (ping and read timeout, timers.ts), behind one timer of
 * that clock. An idle session's only armed timer is its connection's; as a timer of its own it would be a Node
 * Timeout with its bound callback and heap numbers (about 200 bytes) for every session of a pool of thousands,
 * made again at every ping. Here each session is an entry of one min-heap by due time that keeps its own due
 * time and place, and the clock holds one timer, armed for the earliest: when it fires, every entry due by then
 * runs, earliest first. A ManualClock drives it like any other timer, so a test still sees each deadline at
 * exactly its time.
 *
 * An entry may also say how much earlier than its due time it may run (`earlyBy`: a ping may leave a little
 * before the interval ends; a read timeout may not). The timer is still armed for the earliest due time, but a
 * run also takes every entry whose early window has opened by then. A pool of sessions that connected within a
 * second of each other then pings in one wake-up per interval rather than one per session, and a lone entry
 * still runs at exactly its time.
 */
import type { Clock, ClockTimer } from '../clock.js';

/** What waits in a DeadlineQueue: it carries its own due time and heap index, so no wrapper is made per entry. */
export interface Deadline {
  /** Clock time it is due at (set by `schedule`). */
  dueAt: number;
  /** Its index in the heap; NOT_QUEUED while it waits for nothing. Only the queue writes it. */
  slot: number;
  /** How many ms before `dueAt` it may run when the queue wakes for another entry (0: never early). */
  earlyBy: number;
  /** Called once when due (or early, within `earlyBy`); it is no longer queued by then, and may schedule itself again. */
  deadlinePassed(): void;
}

export const NOT_QUEUED = -1;
/**
 * At most this many entries join a run early: a pool of ten thousand sessions would otherwise ping in one turn
 * of the event loop and hold it for tens of ms. Past a hundred or so, one more wake-up costs less than a ping.
 */
export const EARLY_PER_RUN = 128;
/** Taken off the heap by a run, not called yet: a cancel or schedule before its turn takes it out of the run. */
const DUE = -2;

export class DeadlineQueue {
  private readonly heap: Deadline[] = [];
  private readonly clock: Clock;
  private timer: ClockTimer | undefined = undefined;
  /** The due time the clock timer is armed for (NaN: none armed). */
  private armedFor = Number.NaN;
  /** A run is calling its entries: the timer is armed once, when it ends, however many of them re-schedule. */
  private running = false;
  /** The largest `earlyBy` scheduled: how far past now a run looks for entries it may take early. */
  private widestEarly = 0;
  private readonly onTimer = (): void => this.run();

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** Entries waiting. */
  get size(): number {
    return this.heap.length;
  }

  /** `entry` is due at `at` (clock time), whether it waited for another time or for nothing. */
  schedule(entry: Deadline, at: number): void {
    if (entry.slot >= 0) this.remove(entry.slot);
    entry.dueAt = at;
    if (entry.earlyBy > this.widestEarly) this.widestEarly = entry.earlyBy;
    this.insert(entry);
    this.arm();
  }

  /** `entry` waits for nothing any more (nothing happens if it did not). */
  cancel(entry: Deadline): void {
    if (entry.slot === DUE) entry.slot = NOT_QUEUED;
    if (entry.slot < 0) return;
    this.remove(entry.slot);
    entry.slot = NOT_QUEUED;
    this.arm();
  }

  /** The clock timer is armed for the earliest entry, and only while one waits (so it keeps no process alive). */
  private arm(): void {
    if (this.running) return;
    const first = this.heap[0];
    if (first !== undefined && first.dueAt === this.armedFor) return;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Number.NaN;
    if (first === undefined) return;
    this.armedFor = first.dueAt;
    this.timer = this.clock.setTimeout(this.onTimer, first.dueAt - this.clock.now());
  }

  /**
   * Runs every entry due by now, then those it may take early, earliest first. They are taken off the heap
   * before the first runs, so one that schedules itself again (even for now) waits for the next timer, and a run
   * always ends. One entry's throw does not keep the others from running; the first is thrown again once the
   * timer is re-armed.
   */
  private run(): void {
    this.timer = undefined;
    this.armedFor = Number.NaN;
    const now = this.clock.now();
    const due: Deadline[] = [];
    for (let first = this.heap[0]; first !== undefined && first.dueAt <= now; first = this.heap[0]) {
      this.takeDue(due, first);
    }
    if (this.widestEarly > 0) this.takeEarly(due, now);
    let failure: { error: unknown } | null = null;
    this.running = true;
    try {
      for (const entry of due) {
        if (entry.slot !== DUE) continue;
        entry.slot = NOT_QUEUED;
        try {
          entry.deadlinePassed();
        } catch (error) {
          failure ??= { error };
        }
      }
    } finally {
      this.running = false;
    }
    this.arm();
    if (failure !== null) throw failure.error;
  }

  /** The heap's first entry joins this run. */
  private takeDue(due: Deadline[], first: Deadline): void {
    this.remove(0);
    first.slot = DUE;
    due.push(first);
  }

  /**
   * Takes the entries due within the widest early window whose own window has opened, earliest first and at
   * most EARLY_PER_RUN; the others it passes on the way go back on the heap. Only the entries due within that
   * window are looked at.
   */
  private takeEarly(due: Deadline[], now: number): void {
    const horizon = now + this.widestEarly;
    let passed: Deadline[] | undefined;
    let taken = 0;
    for (let first = this.heap[0]; first !== undefined && first.dueAt <= horizon && taken < EARLY_PER_RUN; first = this.heap[0]) {
      if (first.dueAt - first.earlyBy <= now) {
        this.takeDue(due, first);
        taken++;
        continue;
      }
      this.remove(0);
      (passed ??= []).push(first);
    }
    if (passed === undefined) return;
    for (const entry of passed) this.insert(entry);
  }

  /** Puts an entry that is on no heap slot onto the heap, at its due time's place. */
  private insert(entry: Deadline): void {
    entry.slot = this.heap.length;
    this.heap.push(entry);
    this.up(entry.slot);
  }

  /** Takes the entry at `index` off the heap (its own slot is the caller's to set). */
  private remove(index: number): void {
    const heap = this.heap;
    const last = heap.pop() as Deadline;
    if (index === heap.length) return;
    heap[index] = last;
    last.slot = index;
    this.down(index);
    this.up(last.slot);
  }

  private up(index: number): void {
    const heap = this.heap;
    const entry = heap[index] as Deadline;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex] as Deadline;
      if (parent.dueAt <= entry.dueAt) break;
      heap[index] = parent;
      parent.slot = index;
      index = parentIndex;
    }
    heap[index] = entry;
    entry.slot = index;
  }

  private down(index: number): void {
    const heap = this.heap;
    const entry = heap[index] as Deadline;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= heap.length) break;
      const right = child + 1;
      if (right < heap.length && (heap[right] as Deadline).dueAt < (heap[child] as Deadline).dueAt) child = right;
      const smaller = heap[child] as Deadline;
      if (smaller.dueAt >= entry.dueAt) break;
      heap[index] = smaller;
      smaller.slot = index;
      index = child;
    }
    heap[index] = entry;
    entry.slot = index;
  }
}

/** One queue per clock, for the clock's life. */
const queues = new WeakMap<Clock, DeadlineQueue>();

/** The queue of every session on `clock`. */
export function deadlinesOf(clock: Clock): DeadlineQueue {
  let queue = queues.get(clock);
  if (queue === undefined) {
    queue = new DeadlineQueue(clock);
    queues.set(clock, queue);
  }
  return queue;
}
