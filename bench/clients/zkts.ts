// Runner for zkts (@zkts/protocol's promise API, @zkts/recipes' Mutex).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

import { ChannelNames, connect } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import type * as Recipes from '@zkts/recipes';
import type { LockHandle, Mutex } from '@zkts/recipes';

import type { BenchClient, BenchLock, BenchSession, ConnectOptions, Done } from '../harness/session.js';

// Every watch event the client delivers is published on `zkts:event`: that is what events-per-handoff counts,
// including the watches the Mutex sets internally. Subscribed on the first count only (the waiters row counts
// a difference), so the other rows run with no subscriber, as a user's process does.
let watchEvents = 0;
let counting = false;
function countedEvents(): number {
  if (!counting) {
    counting = true;
    subscribe(ChannelNames.event, () => {
      watchEvents++;
    });
  }
  return watchEvents;
}

/** A no-op on every channel the client publishes: the tracing channel's five events and the plain ones. */
function observe(): () => void {
  const names = [
    ...['start', 'end', 'asyncStart', 'asyncEnd', 'error'].map((e) => `tracing:${ChannelNames.request}:${e}`),
    ChannelNames.state,
    ChannelNames.connection,
    ChannelNames.session,
    ChannelNames.auth,
    ChannelNames.event,
  ];
  const noop = (): void => undefined;
  for (const name of names) subscribe(name, noop);
  return () => {
    for (const name of names) unsubscribe(name, noop);
  };
}

// @zkts/recipes is loaded by the first lock only (the lock rows warm up before they measure): every other row's
// process holds only @zkts/protocol, as node-zookeeper-client's holds only its client. Loading the recipes'
// modules keeps about 2 MB of heap alive, which counts toward growing V8's young generation in the
// 1,000-session row (RSS per session) though no session uses it.
let recipes: Promise<typeof Recipes> | undefined;

class ZktsLock implements BenchLock {
  readonly #client: ZkClient;
  readonly #dir: string;
  #mutex: Mutex | undefined;
  #lease: LockHandle | undefined;

  constructor(client: ZkClient, dir: string) {
    this.#client = client;
    this.#dir = dir;
  }

  async acquire(): Promise<void> {
    if (this.#mutex === undefined) {
      const { Mutex } = await (recipes ??= import('@zkts/recipes'));
      this.#mutex = new Mutex(this.#client, this.#dir);
    }
    this.#lease = await this.#mutex.acquire();
  }

  async release(): Promise<void> {
    const lease = this.#lease;
    if (!lease) throw new Error('not held');
    this.#lease = undefined;
    await lease.release();
  }
}

// The pipeline driver passes one shared `done`: keep its success adapter so this runner, like the others,
// allocates nothing of its own per operation (the promise is the client's own cost).
let lastDone: Done | undefined;
let lastOk: (() => void) | undefined;
function ok(done: Done): () => void {
  if (done !== lastDone || !lastOk) {
    lastDone = done;
    lastOk = () => done(null);
  }
  return lastOk;
}

function session(client: ZkClient): BenchSession {
  return {
    getData: (path, done) => void client.getData(path).then(ok(done), done),
    getDataWatch: (path, onEvent, done) => void client.getData(path, { watch: () => onEvent() }).then(ok(done), done),
    setData: (path, data, done) => void client.setData(path, data).then(ok(done), done),
    create: (path, data, done) => void client.create(path, data).then(ok(done), done),
    delete: (path, done) => void client.delete(path).then(ok(done), done),
    getDataBytes: (path, got) => void client.getData(path).then((r) => got(null, r.data), got),
    getChildrenList: (path, got) => void client.getChildren(path).then((r) => got(null, r.children), got),
    countChildren: async (path) => (await client.getChildren(path)).children.length,
    close: async () => { await client.close(); },
    lock: (dir) => new ZktsLock(client, dir),
  };
}

export const client: BenchClient = {
  id: 'zkts',
  label: 'zkts',
  lockLabel: 'zkts Mutex',
  connect: async (connectString, options: ConnectOptions = {}) =>
    session(
      await connect(connectString, {
        sessionTimeout: options.sessionTimeout ?? 30_000,
        ...(options.maxPacket === undefined ? {} : { maxPacket: options.maxPacket }),
      }),
    ),
  watchEventsDelivered: countedEvents,
  observe,
  // Loaded on first use: the SDK's modules stay out of the processes of every other row.
  instrument: async () => (await import('./otel.js')).withOpenTelemetry(),
};
