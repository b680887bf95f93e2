// Uncontended lock cycles for the profile drivers (writes.ts, mutex-alloc.ts, lock-count.ts): the recipe's, and
// the least any lock on a zkts client could cost per cycle (its requests without the recipe).
import type { ZkClient } from '@zkts/protocol';

/**
 * The same requests as an uncontended Mutex cycle, without the recipe: create EPHEMERAL_SEQUENTIAL and
 * getChildren in one turn, then delete, `cycles` times.
 */
export async function bareCycles(c: Pick<ZkClient, 'create' | 'getChildren' | 'delete'>, dir: string, cycles: number): Promise<void> {
  for (let i = 0; i < cycles; i++) {
    const created = c.create(`${dir}/_c_bare-lock-`, null, { mode: 'ephemeral-sequential' });
    const listed = c.getChildren(dir);
    const { path } = await created;
    await listed;
    await c.delete(path);
  }
}

/** `cycles` uncontended acquire + release cycles of one lock instance, as the recipe's user writes them. */
export async function lockCycles(lock: { acquire(): Promise<{ release(): Promise<void> }> }, cycles: number): Promise<void> {
  for (let i = 0; i < cycles; i++) {
    const held = await lock.acquire();
    await held.release();
  }
}
