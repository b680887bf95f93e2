// The queue tracing channels against the real server (zkts:queue.put, zkts:queue.take): zkts's Queue, kazoo's
// LockingQueue and Curator's DistributedQueue (normal and lock-safe consumers), each put and take one trace with
// the item's node and payload size; a take that found nothing ends without them.
import { describe, expect, it } from 'vitest';

import { DistributedQueue, LockingQueue, Queue, RECIPE_CHANNELS, type QueueTrace } from '@zkts/recipes';

import { at, eventsOf, record, SETTLED } from '../../support/channels.js';
import { until, uniqueRoot } from '../../support/helpers.js';
import { utf8 } from '../../support/queue-serializer.js';
import { perTestResources } from '../../support/testbed.js';

const { clients } = perTestResources();

function recordQueue(path: string): { puts: ReturnType<typeof record<QueueTrace>>; takes: ReturnType<typeof record<QueueTrace>> } {
  return {
    puts: record<QueueTrace>(RECIPE_CHANNELS.queuePut, (t) => t.path === path),
    takes: record<QueueTrace>(RECIPE_CHANNELS.queueTake, (t) => t.path === path),
  };
}

describe('queue channels', () => {
  it('Queue: offer is a put, take and poll are takes; a poll of an empty queue takes nothing', async () => {
    const dir = `${uniqueRoot()}/q`;
    const client = await clients.connect();
    const { puts, takes } = recordQueue(dir);
    const q = new Queue(client, dir);
    const first = await q.offer('héllo'); // 6 bytes in UTF-8
    expect(new TextDecoder().decode(await q.take())).toBe('héllo');
    expect(await q.poll()).toBeNull();
    const waiting = q.take();
    await until(() => takes.traces.length === 3, 5000, 'the waiting take');
    const second = await q.offer(new Uint8Array([1, 2, 3]));
    expect([...(await waiting)]).toEqual([1, 2, 3]);

    const queue = { recipe: 'Queue', path: dir };
    expect(puts.traces.map(eventsOf)).toEqual([SETTLED, SETTLED]);
    expect(at(puts.traces[0], 'start')).toEqual({ ...queue, bytes: 6 });
    expect(at(puts.traces[0], 'asyncEnd')).toEqual({ ...queue, node: first, bytes: 6 });
    expect(at(puts.traces[1], 'asyncEnd')).toEqual({ ...queue, node: second, bytes: 3 });
    expect(takes.traces.map(eventsOf)).toEqual([SETTLED, SETTLED, SETTLED]);
    expect(at(takes.traces[0], 'start')).toEqual(queue);
    expect(at(takes.traces[0], 'asyncEnd')).toEqual({ ...queue, node: first, bytes: 6 });
    expect(at(takes.traces[1], 'asyncEnd')).toEqual(queue);
    expect(at(takes.traces[2], 'asyncEnd')).toEqual({ ...queue, node: second, bytes: 3 });
  });

  it('LockingQueue: put and putAll are one put each; get locks an entry (a take), a poll with every entry locked takes nothing', async () => {
    const dir = `${uniqueRoot()}/lq`;
    const [a, b] = await clients.many(2);
    const { puts, takes } = recordQueue(dir);
    const producer = new LockingQueue(a!, dir);
    await producer.put('x', { priority: 5 });
    await producer.putAll(['ab', 'cde']);
    const consumer = new LockingQueue(b!, dir);
    const entry = await consumer.get({ timeout: 5000 });
    expect(new TextDecoder().decode(entry.data)).toBe('x');
    const other = new LockingQueue(b!, dir);
    const next = await other.get({ timeout: 5000 });
    const third = new LockingQueue(b!, dir);
    const last = await third.get({ timeout: 5000 });
    expect(await new LockingQueue(b!, dir).poll()).toBeNull();
    await Promise.all([consumer.consume(), other.consume(), third.consume()]);

    const queue = { recipe: 'LockingQueue', path: dir };
    expect(puts.traces.map(eventsOf)).toEqual([SETTLED, SETTLED]);
    expect(at(puts.traces[0], 'asyncEnd')).toEqual({ ...queue, bytes: 1 });
    expect(at(puts.traces[1], 'asyncEnd')).toEqual({ ...queue, bytes: 5 });
    expect(takes.traces.map(eventsOf)).toEqual([SETTLED, SETTLED, SETTLED, SETTLED]);
    expect(takes.traces.map((t) => at(t, 'asyncEnd'))).toEqual([
      { ...queue, node: entry.path, bytes: 1 }, { ...queue, node: next.path, bytes: 2 }, { ...queue, node: last.path, bytes: 3 }, queue,
    ]);
    expect(entry.path.startsWith(`${dir}/entries/entry-005-`)).toBe(true);
  });

  it.each(['normal', 'lock-safe'] as const)('DistributedQueue (%s consumer): a put per put, a take per item the consumer gets', async (mode) => {
    const root = uniqueRoot();
    const dir = `${root}/q`;
    const client = await clients.connect();
    const { puts, takes } = recordQueue(dir);
    const q = new DistributedQueue<string>(client, dir, { serializer: utf8, ...(mode === 'lock-safe' && { lockPath: `${root}/locks` }) });
    const one = await q.put('one');
    const two = await q.putMulti(['two', 'three']);
    const got: string[] = [];
    for await (const message of q.messages()) {
      got.push(message);
      if (got.length === 3) break;
    }
    await q.close();

    expect(got).toEqual(['one', 'two', 'three']);
    const queue = { recipe: 'DistributedQueue', path: dir };
    expect(puts.traces.map(eventsOf)).toEqual([SETTLED, SETTLED]);
    expect(at(puts.traces[0], 'start')).toEqual({ ...queue, bytes: 3 });
    expect(at(puts.traces[0], 'asyncEnd')).toEqual({ ...queue, node: one, bytes: 3 });
    expect(at(puts.traces[1], 'asyncEnd')).toEqual({ ...queue, node: two, bytes: 8 });
    // One take per item: the second item carries two messages. The item's node is known from the start.
    expect(takes.traces.map(eventsOf)).toEqual([SETTLED, SETTLED]);
    expect(at(takes.traces[0], 'start')).toEqual({ ...queue, node: one });
    expect(at(takes.traces[0], 'asyncEnd')).toEqual({ ...queue, node: one, bytes: 3 });
    expect(at(takes.traces[1], 'asyncEnd')).toEqual({ ...queue, node: two, bytes: 8 });
  });
});
