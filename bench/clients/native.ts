// Runner for the `zookeeper` npm package: Node bindings over the bundled ZooKeeper C client (its own I/O
// thread). We use its documented callback API (a_get, aw_get, …), the cheapest path it offers.
import { createRequire } from 'node:module';

import type { BenchClient, BenchSession, Done } from '../harness/session.js';

type Rc = number;
interface NativeZk {
  on(event: 'connect' | 'close', listener: () => void): void;
  once(event: 'connect' | 'close', listener: () => void): void;
  init(config: object): void;
  close(): void;
  a_get(path: string, watch: boolean, cb: (rc: Rc, error: string, stat?: unknown, data?: Buffer) => void): void;
  aw_get(path: string, watchCb: (type: number, state: number, path: string) => void, cb: (rc: Rc, error: string) => void): void;
  a_set(path: string, data: Buffer, version: number, cb: (rc: Rc, error: string) => void): void;
  a_create(path: string, data: Buffer, flags: number, cb: (rc: Rc, error: string) => void): void;
  a_delete_(path: string, version: number, cb: (rc: Rc, error: string) => void): void;
  a_get_children(path: string, watch: boolean, cb: (rc: Rc, error: string, children: string[]) => void): void;
}
type NativeZkClass = (new (config: object) => NativeZk) & { constants: { ZOO_LOG_LEVEL_ERROR: number; ZOO_SESSION_EVENT: number } };

const ZooKeeper = createRequire(import.meta.url)('zookeeper') as NativeZkClass;

let watchEvents = 0;

// The pipeline driver passes the same `done` for every op: remember its adapter so that this runner, like the
// others, allocates nothing of its own per operation.
let lastDone: Done | undefined;
let lastAdapter: ((rc: Rc, error: string) => void) | undefined;
function check(done: Done): (rc: Rc, error: string) => void {
  if (done !== lastDone || !lastAdapter) {
    lastDone = done;
    lastAdapter = (rc, error) => done(rc === 0 ? null : new Error(`zookeeper rc=${rc} ${error}`));
  }
  return lastAdapter;
}

function connectClient(connectString: string, timeout: number, bigFrames: boolean): Promise<NativeZk> {
  return new Promise((resolve, reject) => {
    const config = {
      connect: connectString,
      timeout,
      debug_level: ZooKeeper.constants.ZOO_LOG_LEVEL_ERROR,
      host_order_deterministic: false,
      data_as_buffer: true,
      // The binding closes the session ("zookeeper_process returned no response too many times") after this many
      // socket wake-ups in a row that complete no frame, 10 by default: a 1 MiB reply takes more reads than
      // that. It is the knob a user of large frames has to raise, as others raise a max packet size.
      ...(bigFrames ? { response_counter_limit: 1_000_000 } : {}),
    };
    const zk = new ZooKeeper(config);
    const timer = setTimeout(() => reject(new Error('zookeeper (native): connect timed out')), 20_000);
    zk.once('connect', () => {
      clearTimeout(timer);
      resolve(zk);
    });
    zk.init(config);
  });
}

const asBuffer = (data: Uint8Array): Buffer => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

function session(zk: NativeZk): BenchSession {
  return {
    getData: (path, done) => zk.a_get(path, false, check(done)),
    getDataWatch: (path, onEvent, done) =>
      zk.aw_get(
        path,
        (type) => {
          // The C client also calls every registered watcher with each session event (disconnected,
          // connected again): those are not the node's watch firing.
          if (type === ZooKeeper.constants.ZOO_SESSION_EVENT) return;
          watchEvents++;
          onEvent();
        },
        check(done),
      ),
    getDataBytes: (path, got) =>
      zk.a_get(path, false, (rc, error, _stat, data) =>
        rc === 0 ? got(null, data ?? new Uint8Array(0)) : got(new Error(`zookeeper rc=${rc} ${error}`)),
      ),
    getChildrenList: (path, got) =>
      zk.a_get_children(path, false, (rc, error, children) => (rc === 0 ? got(null, children) : got(new Error(`zookeeper rc=${rc} ${error}`)))),
    setData: (path, data, done) => zk.a_set(path, asBuffer(data), -1, check(done)),
    create: (path, data, done) => zk.a_create(path, asBuffer(data), 0, check(done)),
    delete: (path, done) => zk.a_delete_(path, -1, check(done)),
    countChildren: (path) =>
      new Promise((resolve, reject) =>
        zk.a_get_children(path, false, (rc, error, children) =>
          rc === 0 ? resolve(children.length) : reject(new Error(`zookeeper rc=${rc} ${error}`)),
        ),
      ),
    close: async () => {
      // The C client closes asynchronously; give it a moment to send closeSession before the process exits.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1_000);
        zk.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        zk.close();
      });
    },
  };
}

export const client: BenchClient = {
  id: 'native',
  label: 'zookeeper (native C)',
  // The C client has no frame limit to raise (it allocates whatever length the server announces); the binding's
  // response_counter_limit stands in for it (see connectClient).
  connect: async (connectString, options = {}) =>
    session(await connectClient(connectString, options.sessionTimeout ?? 30_000, options.maxPacket !== undefined)),
  watchEventsDelivered: () => watchEvents,
};
