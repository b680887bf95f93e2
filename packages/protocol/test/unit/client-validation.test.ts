// Bad arguments reach the caller one way: every operation returns a rejected promise with an
// InvalidArgumentError, and none throws synchronously (so `.catch()` and `await` alike see the error). The client
// is never connected: validation comes before anything is sent.
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, createClient, type RemoveWatchType, type CheckWatchType, type Op, type ReadOp } from '../../src/index.js';

const zk = createClient('127.0.0.1:1');
afterAll(() => zk.close());

const BAD = 'bad path';
const withPath: Record<string, (path: string) => Promise<unknown>> = {
  create: (p) => zk.create(p),
  'create sequential': (p) => zk.create(p, null, { mode: 'persistent-sequential' }),
  'create protected': (p) => zk.create(p, null, { protected: true }),
  delete: (p) => zk.delete(p),
  'delete guaranteed': (p) => zk.delete(p, { guaranteed: true }),
  exists: (p) => zk.exists(p),
  'exists watch': (p) => zk.exists(p, { watch: true }),
  getData: (p) => zk.getData(p),
  'getData watch': (p) => zk.getData(p, { watch: true }),
  'getData listener': (p) => zk.getData(p, { watch: () => undefined }),
  setData: (p) => zk.setData(p, 'x'),
  getACL: (p) => zk.getACL(p),
  setACL: (p) => zk.setACL(p, []),
  getChildren: (p) => zk.getChildren(p),
  'getChildren watch': (p) => zk.getChildren(p, { watch: true }),
  sync: (p) => zk.sync(p),
  multi: (p) => zk.multi([{ op: 'check', path: p, version: 0 }]),
  multiRead: (p) => zk.multiRead([{ op: 'getData', path: p }]),
  getEphemerals: (p) => zk.getEphemerals(p),
  getAllChildrenNumber: (p) => zk.getAllChildrenNumber(p),
  addWatch: (p) => zk.addWatch(p, 'persistent'),
  removeWatches: (p) => zk.removeWatches(p, 'any'),
  'removeWatches local': (p) => zk.removeWatches(p, 'data', { local: true }),
  checkWatches: (p) => zk.checkWatches(p, 'data'),
  mkdirp: (p) => zk.mkdirp(p),
  removeRecursive: (p) => zk.removeRecursive(p),
};

const otherwise: Record<string, () => Promise<unknown>> = {
  'delete of the root': () => zk.delete('/'),
  'a negative version': () => zk.setData('/a', 'x', { version: -2 }),
  'a negative timeout': () => zk.getData('/a', { timeout: -1 }),
  'a watch that is not true or a function': () => zk.getData('/a', { watch: 'yes' as never }),
  'getConfig with a bad watch': () => zk.getConfig({ watch: 1 as never }),
  'an unknown create mode': () => zk.create('/a', null, { mode: 'forever' as never }),
  'an unknown addWatch mode': () => zk.addWatch('/a', 'once' as never),
  'an unknown removeWatches type': () => zk.removeWatches('/a', 'bogus' as RemoveWatchType),
  'an unknown checkWatches type': () => zk.checkWatches('/a', 'bogus' as CheckWatchType),
  'multi without an array': () => zk.multi('ops' as unknown as Op[]),
  'multiRead of a write': () => zk.multiRead([{ op: 'delete', path: '/a' } as unknown as ReadOp]),
  'whoAmI with a negative timeout': () => zk.whoAmI({ timeout: -1 }),
  'addAuth without a scheme': () => zk.addAuth('', 'x'),
  'reconfig with neither form': () => zk.admin.reconfig({}),
};

async function expectRejected(call: () => Promise<unknown>): Promise<void> {
  let result: Promise<unknown> | undefined;
  expect(() => {
    result = call();
  }).not.toThrow();
  expect(result).toBeInstanceOf(Promise);
  await expect(result).rejects.toBeInstanceOf(InvalidArgumentError);
}

describe('a bad argument is a rejected promise, never a synchronous throw', () => {
  it.each(Object.keys(withPath))('%s with a bad path', async (name) => {
    await expectRejected(() => (withPath[name] as (path: string) => Promise<unknown>)(BAD));
  });

  it.each(Object.keys(otherwise))('%s', async (name) => {
    await expectRejected(otherwise[name] as () => Promise<unknown>);
  });
});
