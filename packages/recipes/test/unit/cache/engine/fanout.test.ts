// Consumers of a cache's events: one that throws, one that is slow, iterators that end or fail; each at its own
// pace, none affecting another.
import { describe, expect, it } from 'vitest';

import { Fanout } from '../../../../src/cache/engine/fanout.js';
import { Sequencer } from '../../../../src/cache/engine/sequencer.js';
import type { CacheEvent } from '../../../../src/cache/types.js';

const init = (size: number): CacheEvent<null> => ({ type: 'initialized', size });
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('Fanout', () => {
  it('a throwing listener is reported and keeps getting events; a slow one gets them one at a time, in order', async () => {
    const errors: unknown[] = [];
    const f = new Fanout<null>(100, (e) => errors.push(e));
    const thrown: number[] = [];
    f.listen((e) => {
      thrown.push(e.type === 'initialized' ? e.size : -1);
      throw new Error('boom');
    });
    const slow: number[] = [];
    let inside = 0;
    let release!: () => void;
    let gate = new Promise<void>((r) => (release = r));
    f.listen(async (e) => {
      inside++;
      expect(inside).toBe(1);
      slow.push(e.type === 'initialized' ? e.size : -1);
      await gate;
      inside--;
    });
    const fast: number[] = [];
    f.listen((e) => void fast.push(e.type === 'initialized' ? e.size : -1));
    f.emit([init(1), init(2)]);
    f.emit([init(3)]);
    await tick();
    expect(fast).toEqual([1, 2, 3]);
    expect(thrown).toEqual([1, 2, 3]);
    expect(errors).toHaveLength(3);
    expect(slow).toEqual([1]);
    for (let i = 0; i < 3; i++) {
      release();
      gate = new Promise<void>((r) => (release = r));
      await tick();
    }
    expect(slow).toEqual([1, 2, 3]);
  });

  it('iterators: buffered events first, then done on end(null), or the error on end(error)', async () => {
    const f = new Fanout<null>(100, () => undefined);
    const a = f.iterate();
    const b = f.iterate();
    f.emit([init(1)]);
    const pending = a.next();
    expect(await pending).toEqual({ value: init(1), done: false });
    const waiting = a.next();
    f.emit([init(2)]);
    expect(await waiting).toEqual({ value: init(2), done: false });
    f.end(new Error('gone'));
    expect(await b.next()).toEqual({ value: init(1), done: false });
    expect(await b.next()).toEqual({ value: init(2), done: false });
    await expect(b.next()).rejects.toThrow('gone');
    await expect(a.next()).rejects.toThrow('gone');
    expect((await f.iterate().next().catch((e: unknown) => e)) as Error).toBeInstanceOf(Error);
  });

  it('leaving a loop, or an abort, detaches the iterator', async () => {
    const f = new Fanout<null>(100, () => undefined);
    const controller = new AbortController();
    const it1 = f.iterate(controller.signal);
    const it2 = f.iterate();
    expect(f.size).toBe(2);
    controller.abort();
    await it2.return?.();
    expect(f.size).toBe(0);
    expect(await it1.next()).toEqual({ value: undefined, done: true });
  });
});

describe('Sequencer', () => {
  it('hands outcomes back in sending order whatever order they settle in', async () => {
    const seen: string[] = [];
    const s = new Sequencer(() => undefined);
    const resolvers: ((v: string) => void)[] = [];
    for (let i = 0; i < 3; i++) {
      s.run(
        () => new Promise<string>((r) => resolvers.push(r)),
        (v, seq) => seen.push(`${v}${seq}`),
        () => undefined,
      );
    }
    resolvers[2]?.('c');
    resolvers[1]?.('b');
    await tick();
    expect(seen).toEqual([]);
    resolvers[0]?.('a');
    await tick();
    expect(seen).toEqual(['a1', 'b2', 'c3']);
    expect(s.sent).toBe(3);
  });
});
