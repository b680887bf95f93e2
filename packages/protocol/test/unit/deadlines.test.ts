// The clock's one queue of connection deadlines (session/deadlines.ts) on a manual clock: each entry runs at
// exactly its due time, earliest first, behind one clock timer that is armed only while an entry waits; an entry
// that may run early joins a run due within its window, never a timer of its own; moves, cancels, entries that
// re-schedule themselves or cancel others while a run is under way, and a throwing entry.
// A seeded run checks it against a plain list (the seed is printed; ZKTS_SEED=<seed> replays it).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@zkts/testkit';
import { DeadlineQueue, EARLY_PER_RUN, NOT_QUEUED, deadlinesOf, type Deadline } from '../../src/client/session/deadlines.js';
import { prng } from '../support/recorded-session.js';

/** An entry that records when it ran, and runs `then` (if any) when due. */
class Entry implements Deadline {
  dueAt = 0;
  slot = NOT_QUEUED;
  earlyBy = 0;
  readonly ran: number[] = [];
  then: (() => void) | null = null;

  constructor(
    readonly name: string,
    private readonly clock: ManualClock,
    private readonly log: string[],
  ) {}

  deadlinePassed(): void {
    this.ran.push(this.clock.now());
    this.log.push(this.name);
    this.then?.();
  }
}

/** A manual clock whose timers all run `lateBy` ms after their due time, as a busy event loop runs them. */
class LateClock extends ManualClock {
  constructor(private readonly lateBy: number) {
    super(0);
  }

  override setTimeout(callback: () => void, ms: number): object {
    return super.setTimeout(callback, ms + this.lateBy);
  }
}

function setup(lateBy = 0): { clock: ManualClock; queue: DeadlineQueue; log: string[]; entry(name: string): Entry } {
  const clock = lateBy === 0 ? new ManualClock(0) : new LateClock(lateBy);
  const log: string[] = [];
  return { clock, queue: new DeadlineQueue(clock), log, entry: (name) => new Entry(name, clock, log) };
}

describe('DeadlineQueue', () => {
  it('runs each entry at exactly its due time, earliest first, behind one clock timer', () => {
    const { clock, queue, log, entry } = setup();
    const [a, b, c] = [entry('a'), entry('b'), entry('c')];
    queue.schedule(a, 300);
    queue.schedule(b, 100);
    queue.schedule(c, 200.5);
    expect(clock.pending).toBe(1);
    expect(clock.nextDue()).toBe(100);
    clock.advance(1000);
    expect(log).toEqual(['b', 'c', 'a']);
    expect([b.ran, c.ran, a.ran]).toEqual([[100], [200.5], [300]]);
    expect(queue.size).toBe(0);
    // Nothing waits: no timer is left to keep a process alive.
    expect(clock.pending).toBe(0);
    expect([a.slot, b.slot, c.slot]).toEqual([NOT_QUEUED, NOT_QUEUED, NOT_QUEUED]);
  });

  it('moves an entry later or earlier, and the clock timer with the earliest', () => {
    const { clock, queue, log, entry } = setup();
    const [a, b] = [entry('a'), entry('b')];
    queue.schedule(a, 100);
    queue.schedule(b, 200);
    queue.schedule(a, 300);
    expect(clock.nextDue()).toBe(200);
    queue.schedule(a, 50);
    expect(clock.nextDue()).toBe(50);
    expect(clock.pending).toBe(1);
    clock.advance(1000);
    expect(log).toEqual(['a', 'b']);
    expect(a.ran).toEqual([50]);
  });

  it('a cancelled entry never runs; the last cancel disarms the clock timer', () => {
    const { clock, queue, log, entry } = setup();
    const [a, b] = [entry('a'), entry('b')];
    queue.schedule(a, 100);
    queue.schedule(b, 200);
    queue.cancel(a);
    expect(clock.nextDue()).toBe(200);
    queue.cancel(a);
    queue.cancel(b);
    expect(clock.pending).toBe(0);
    clock.advance(1000);
    expect(log).toEqual([]);
  });

  it('an entry that schedules itself for now from its run waits for the next timer, so a run always ends', () => {
    const { clock, queue, entry } = setup();
    const a = entry('a');
    a.then = (): void => {
      if (a.ran.length < 3) queue.schedule(a, clock.now());
    };
    queue.schedule(a, 100);
    clock.advance(100);
    // Each re-run came from a timer of its own (a manual clock runs a timer set by a timer in the same advance).
    expect(a.ran).toEqual([100, 100, 100]);
    expect(clock.pending).toBe(0);
  });

  it('entries due in one late run: one that an earlier one cancels or moves runs only as it was told last', () => {
    const { clock, queue, log, entry } = setup(5);
    const [a, b, c] = [entry('a'), entry('b'), entry('c')];
    a.then = (): void => {
      queue.cancel(b);
      queue.schedule(c, 500);
    };
    queue.schedule(a, 100);
    queue.schedule(b, 100.5);
    queue.schedule(c, 100.7);
    // The timer runs 5 ms late (a busy loop): all three are due by then, a first.
    clock.advance(105);
    expect(log).toEqual(['a']);
    expect(b.slot).toBe(NOT_QUEUED);
    clock.advance(1000);
    expect(log).toEqual(['a', 'c']);
    expect(c.ran).toEqual([505]);
    expect(b.ran).toEqual([]);
  });

  it('a throwing entry does not keep the others of its run from running; its error comes out of the timer', () => {
    const { clock, queue, log, entry } = setup(5);
    const [a, b, c] = [entry('a'), entry('b'), entry('c')];
    a.then = (): void => {
      throw new Error('boom');
    };
    queue.schedule(a, 100);
    queue.schedule(b, 100.5);
    queue.schedule(c, 200);
    expect(() => clock.advance(105)).toThrow('boom');
    expect(log).toEqual(['a', 'b']);
    // Re-armed for what still waits (5 ms late, as this clock runs every timer).
    expect(clock.nextDue()).toBe(205);
    clock.advance(200);
    expect(log).toEqual(['a', 'b', 'c']);
  });

  it('an entry that may run early joins a run within its window, and alone runs at exactly its time', () => {
    const { clock, queue, log, entry } = setup();
    const [a, b, c, d, e] = [entry('a'), entry('b'), entry('c'), entry('d'), entry('e')];
    b.earlyBy = 60;
    c.earlyBy = 40;
    e.earlyBy = 500;
    queue.schedule(a, 100);
    queue.schedule(b, 150);
    queue.schedule(c, 150.5);
    // d may not run early: the run at 100 passes over it to reach b, and leaves it for its own time.
    queue.schedule(d, 120);
    queue.schedule(e, 1000);
    expect(clock.nextDue()).toBe(100);
    clock.advance(100);
    expect(log).toEqual(['a', 'b']);
    expect(b.ran).toEqual([100]);
    expect(queue.size).toBe(3);
    expect(clock.nextDue()).toBe(120);
    clock.advance(2000);
    expect(log).toEqual(['a', 'b', 'd', 'c', 'e']);
    // c's window (from 110.5) had not opened at 100 but had at 120, when d's run took it; e's (from 500) had not
    // opened at 120, so e ran alone at its own time.
    expect([d.ran, c.ran, e.ran]).toEqual([[120], [120], [1000]]);
    expect(clock.pending).toBe(0);
  });

  it('a run takes at most EARLY_PER_RUN entries early; the next takes the rest from the first of them', () => {
    const { clock, queue, log, entry } = setup();
    const lead = entry('lead');
    queue.schedule(lead, 100);
    const pool = Array.from({ length: EARLY_PER_RUN * 2 + 10 }, (_, i) => entry(`p${i}`));
    pool.forEach((e, i) => {
      e.earlyBy = 1000;
      queue.schedule(e, 101 + i);
    });
    clock.advance(100);
    expect(log.length).toBe(1 + EARLY_PER_RUN);
    // The earliest of the pool went first; the next run is at the first one left.
    expect(log.slice(1)).toEqual(pool.slice(0, EARLY_PER_RUN).map((e) => e.name));
    expect(clock.nextDue()).toBe(101 + EARLY_PER_RUN);
    clock.advance(1000);
    expect(log.length).toBe(1 + pool.length);
    // Run 2 at p128's own time takes it and 128 more early; run 3, at the first left, takes the rest.
    const second = 101 + EARLY_PER_RUN;
    const third = second + EARLY_PER_RUN + 1;
    expect(pool.map((e) => e.ran[0])).toEqual(pool.map((_, i) => (i < EARLY_PER_RUN ? 100 : i <= 2 * EARLY_PER_RUN ? second : third)));
  });

  it('one queue per clock', () => {
    const one = new ManualClock(0);
    const other = new ManualClock(0);
    expect(deadlinesOf(one)).toBe(deadlinesOf(one));
    expect(deadlinesOf(one)).not.toBe(deadlinesOf(other));
  });

  it('seeded schedules (some early-capable), moves and cancels: every entry runs when and as often as a plain list says', () => {
    const seed = process.env['ZKTS_SEED'] === undefined ? (Date.now() >>> 0) : Number(process.env['ZKTS_SEED']);
    console.info(`deadline queue: seed ${seed} (replay: ZKTS_SEED=${seed})`);
    const random = prng(seed);
    const { clock, queue, entry } = setup();
    const entries = Array.from({ length: 40 }, (_, i) => entry(`e${i}`));
    /** The model: what each entry waits for (undefined: nothing), and when each must have run. */
    const waitsFor = new Map<Entry, number>();
    const expected = new Map<Entry, number[]>(entries.map((e) => [e, []]));
    for (let step = 0; step < 2000; step++) {
      const e = entries[Math.floor(random() * entries.length)] as Entry;
      const roll = random();
      if (roll < 0.6) {
        const at = clock.now() + Math.floor(random() * 500) + (random() < 0.2 ? 0.5 : 0);
        e.earlyBy = random() < 0.5 ? 0 : Math.floor(random() * 100);
        queue.schedule(e, at);
        waitsFor.set(e, at);
      } else if (roll < 0.75) {
        queue.cancel(e);
        waitsFor.delete(e);
      } else {
        const by = Math.floor(random() * 200);
        const until = clock.now() + by;
        // The clock wakes at the earliest due time; that run takes every entry due by then or whose early
        // window has opened.
        for (;;) {
          const wake = Math.min(...waitsFor.values());
          if (wake > until) break;
          for (const [w, at] of [...waitsFor]) {
            if (at - w.earlyBy <= wake) {
              expected.get(w)?.push(wake);
              waitsFor.delete(w);
            }
          }
        }
        clock.advance(by);
      }
      expect(queue.size, `seed ${seed} step ${step}`).toBe(waitsFor.size);
      expect(clock.pending, `seed ${seed} step ${step}`).toBe(waitsFor.size > 0 ? 1 : 0);
    }
    for (const e of entries) expect(e.ran, `seed ${seed}: ${e.name}`).toEqual(expected.get(e));
  });
});
