// Exclusion checks a broken lock fails. Each holder runs a critical section that spans real I/O: it is counted
// in, makes a server round trip, then looks at how many are inside, reads a shared cell, makes another round trip
// and writes the cell back plus one. A holder let in beside another is inside across one of those awaits, so it is
// seen (more inside than the lock admits) and, under a mutex, one of the two writes is lost (the cell ends below
// the number of sections run). Counting in, checking and counting out in one synchronous turn could see no one:
// nothing else runs in between. `grantsEveryone` is the broken lock for the negative controls.
import type { ZkClient } from '@zkts/protocol';

/** What the checks need of a lock: an acquire whose handle releases. */
export interface Acquirable {
  acquire(options?: { timeout?: number }): Promise<{ release(): Promise<void> }>;
}

export class CriticalSection {
  /** Holders inside now. */
  inside = 0;
  /** The most holders inside at once. */
  peak = 0;
  /** Sections that found more holders inside than `capacity` after their first round trip. */
  violations = 0;
  /** Sections run. */
  sections = 0;
  /** The shared cell each section increments by read, round trip, write. */
  cell = 0;

  /** `capacity`: how many holders the lock admits at once (1 for a mutex, N for a semaphore). */
  constructor(readonly capacity = 1) {}

  /** One holder's section; `io` is a round trip to the server (awaited twice: before the check, and between read and write). */
  async run(io: () => Promise<unknown>): Promise<void> {
    this.inside++;
    this.sections++;
    this.peak = Math.max(this.peak, this.inside);
    try {
      await io();
      if (this.inside > this.capacity) this.violations++;
      const read = this.cell;
      await io();
      this.cell = read + 1;
    } finally {
      this.inside--;
    }
  }

  /** Increments overwritten by a holder that ran at the same time (meaningful for capacity 1). */
  get lostUpdates(): number {
    return this.sections - this.cell;
  }
}

/**
 * A broken lock for negative controls: acquire creates a contender node as a real lock does (one round trip, so
 * grants are spaced as a real lock's are) but never waits for anyone; release deletes it.
 */
export function grantsEveryone(client: ZkClient, dir: string): Acquirable {
  return {
    async acquire() {
      await client.mkdirp(dir);
      const { path } = await client.create(`${dir}/lock-`, null, { mode: 'ephemeral-sequential' });
      return { release: () => client.delete(path) };
    },
  };
}
