// Runner for node-zookeeper-client (pure JS, callback API), with the seeds' naive lock.
import nzk from 'node-zookeeper-client';
import type { Client } from 'node-zookeeper-client';

import type { BenchClient, BenchSession, Done } from '../harness/session.js';
import { SeedsLock } from './seeds-lock.js';
import type { SeedsLockCounters } from './seeds-lock.js';

const counters: SeedsLockCounters = { watchEvents: 0 };

function connectClient(connectString: string, sessionTimeout: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = nzk.createClient(connectString, { sessionTimeout, retries: 0 });
    const timer = setTimeout(() => reject(new Error('node-zookeeper-client: connect timed out')), 20_000);
    client.once('connected', () => {
      clearTimeout(timer);
      resolve(client);
    });
    client.connect();
  });
}

function session(client: Client): BenchSession {
  return {
    getData: (path, done: Done) => client.getData(path, done),
    getDataWatch: (path, onEvent, done) =>
      client.getData(
        path,
        () => {
          counters.watchEvents++;
          onEvent();
        },
        (e) => done(e),
      ),
    setData: (path, data, done) => client.setData(path, Buffer.from(data.buffer, data.byteOffset, data.byteLength), -1, (e) => done(e)),
    create: (path, data, done) =>
      client.create(path, Buffer.from(data.buffer, data.byteOffset, data.byteLength), nzk.CreateMode.PERSISTENT, (e) => done(e)),
    delete: (path, done) => client.remove(path, -1, done),
    getDataBytes: (path, got) => client.getData(path, (e, data) => (e ? got(e) : got(null, data))),
    getChildrenList: (path, got) => client.getChildren(path, (e, children) => (e ? got(e) : got(null, children))),
    countChildren: (path) =>
      new Promise((resolve, reject) => client.getChildren(path, (e, children) => (e ? reject(e) : resolve(children.length)))),
    close: async () => {
      // close() sends closeSession and tears the socket down; 'disconnected' follows once it is done.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2_000);
        client.once('disconnected', () => {
          clearTimeout(timer);
          resolve();
        });
        client.close();
      });
    },
    lock: (dir) => new SeedsLock(client, dir, counters),
  };
}

export const client: BenchClient = {
  id: 'nzk',
  label: 'node-zookeeper-client',
  lockLabel: 'seeds lock (node-zookeeper-client)',
  // node-zookeeper-client has no frame limit to raise (it reads whatever length the server announces).
  connect: async (connectString, options = {}) => session(await connectClient(connectString, options.sessionTimeout ?? 30_000)),
  watchEventsDelivered: () => counters.watchEvents,
};
