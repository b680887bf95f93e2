// The console server's side of live updates when an answer and a change cross, against the shared real
// ZooKeeper: the server answers at once, and a wrapper hands the answer on only when the test releases it. A
// cached child list must not serve a read that began before a change, and a watch armed after a page was told
// the state must make the page read again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type ZkClient } from '@zkts/protocol';

import { ChangeHub, type ChangeListener } from '../../../src/console/change-hub.js';
import { ChildrenCache } from '../../../src/console/children-cache.js';
import { sharedServer, uniqueRoot } from '../../support/cli.js';
import { until } from '../../support/tree-page.js';

const server = sharedServer();
let other: ZkClient;
const root = uniqueRoot('console-races');

beforeAll(async () => {
  other = await connect(server);
  await other.create(root);
});
afterAll(async () => {
  await other?.removeRecursive(root).catch(() => undefined);
  await other?.close();
});

interface Held {
  readonly client: ZkClient;
  /** Resolves when the server has answered the held call. */
  readonly answered: Promise<void>;
  release(): void;
}

/** The client, except that the first call of `method` hands its (real, prompt) answer on only when released. */
function holdFirstAnswer(client: ZkClient, method: 'getChildren' | 'addWatch'): Held {
  let answeredNow!: () => void;
  const answered = new Promise<void>((resolve) => (answeredNow = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  const proxy = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== method || held) return value.bind(target);
      return async (...args: unknown[]) => {
        held = true;
        const answer: unknown = await value.apply(target, args);
        answeredNow();
        await released;
        return answer;
      };
    },
  });
  return { client: proxy, answered, release };
}

function resetRecorder(): { listener: ChangeListener; resets: string[] } {
  const resets: string[] = [];
  return { resets, listener: { change: () => undefined, reset: (reason) => resets.push(reason), state: () => undefined } };
}

describe('children cache', () => {
  it('does not hand a read that began before a change to a request that came after it', async () => {
    const parent = `${root}/cache`;
    await other.create(parent);
    await other.create(`${parent}/a`);
    const client = await connect(server);
    try {
      const held = holdFirstAnswer(client, 'getChildren');
      const cache = new ChildrenCache(held.client);
      const before = cache.get(parent);
      await held.answered;
      await other.create(`${parent}/b`);
      // What the live watch does when it hears the change.
      cache.invalidate(parent);
      const after = cache.get(parent);
      held.release();
      expect((await after).names).toEqual(['a', 'b']);
      // The request that was already waiting gets the read it joined.
      expect((await before).names).toEqual(['a']);
      // The older answer, settling last, is not served: the next request sees the parent moved on.
      expect((await cache.get(parent)).names).toEqual(['a', 'b']);
    } finally {
      await client.close();
    }
  });
});

describe('change hub', () => {
  it('tells its listeners to read again when the watch is armed after a page went on without it', async () => {
    const parent = `${root}/late`;
    await other.create(parent);
    const client = await connect(server);
    try {
      const held = holdFirstAnswer(client, 'addWatch');
      const hub = new ChangeHub(held.client);
      const { listener, resets } = resetRecorder();
      const heard: string[] = [];
      const unsubscribe = hub.subscribe({ ...listener, change: (type, path) => void heard.push(`${type} ${path}`) });
      await held.answered;
      // The events route waits this long, then tells the page the state and the page reads: unarmed yet.
      await hub.ready(50);
      expect(hub.armed).toBe(false);
      expect(resets).toEqual([]);
      // Made after the page's read and before the hub has its watch: only a second read shows it.
      await other.create(`${parent}/unheard`);
      held.release();
      await until('the watch armed', () => hub.armed);
      expect(resets).toEqual(['the live watch is armed now']);
      await other.create(`${parent}/heard`);
      await until('a change after the arm', () => heard.includes(`created ${parent}/heard`));
      unsubscribe();
    } finally {
      await client.close();
    }
  });

  it('arms in time without telling anyone to read again', async () => {
    const client = await connect(server);
    try {
      const hub = new ChangeHub(client);
      const { listener, resets } = resetRecorder();
      const unsubscribe = hub.subscribe(listener);
      await hub.ready(5000);
      expect(hub.armed).toBe(true);
      const parent = `${root}/in-time`;
      await other.create(parent);
      await other.delete(parent);
      // A reset would have come with the arm, before ready() resolved; this read's reply comes after the two
      // changes' events (the server sends a session its events first): by now every callback has run.
      await client.exists(parent);
      expect(resets).toEqual([]);
      unsubscribe();
    } finally {
      await client.close();
    }
  });
});
