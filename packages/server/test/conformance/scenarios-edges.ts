// Conformance scenarios at the edges: odd flags and op/flag mismatches, reads inside a write multi, null and
// odd arguments, re-attach with a new timeout, setWatches from the future, requests after closeSession.
import type { Scenario } from './harness.js';
import { addWatch, create, createTTL, del, get, OP, set, setWatches } from './ops.js';

export const edgeScenarios: Record<string, Scenario> = {
  async 'create opcodes against their flags'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.createContainer, create(`${c.root}/cont0`, '', 0));
    await c.call('s1', OP.createContainer, create(`${c.root}/cont1`, '', 1));
    await c.call('s1', OP.create2, create(`${c.root}/plain4`, '', 4));
    await c.call('s1', OP.createTTL, createTTL(`${c.root}/ttlseq-`, 3_600_000n, 6));
    await c.call('s1', OP.create, create(`${c.root}/cont0/kid`));
    await c.call('s1', OP.create, create(`${c.root}/ttlseq-0000000005/kid`));
    await c.call('s1', OP.getChildren2, get(c.root));
    for (const n of ['cont0', 'cont1', 'plain4']) await c.call('s1', OP.exists, get(`${c.root}/${n}`));
  },
  async 'multi: odd creates, a read inside, a null path'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.multi, [
      { op: 'create', ...create(`${c.root}/c4`, '', 4) },
      { op: 'createTTL', ...createTTL(`${c.root}/t`, 3_600_000n) },
      { op: 'createContainer', ...create(`${c.root}/c0`, '', 0) },
      { op: 'create', ...create(`${c.root}/bad`, '', 9) },
    ]);
    await c.call('s1', OP.multi, [{ op: 'create', ...create(`${c.root}/c4`, '', 4) }, { op: 'create2', ...create(`${c.root}/e`, '', 1) }]);
    await c.call('s1', OP.multi, [{ op: 'check', path: `${c.root}/none`, version: -1 }, { op: 'delete', ...del(c.root) }]);
    await c.call('s1', OP.getChildren2, get(c.root));
    await c.call('s1', OP.exists, get(`${c.root}/c4`));
  },
  async 'odd arguments of reads and watches'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.exists, get(`${c.root}\u0000x`));
    await c.call('s1', OP.getData, get(`${c.root}/`));
    await c.call('s1', OP.getChildren, get('relative'));
    await c.call('s1', OP.getEphemerals, { prefixPath: null });
    await c.call('s1', OP.getAllChildrenNumber, { path: '/zookeeper' });
    await c.call('s1', OP.addWatch, addWatch(c.root, 2));
    await c.call('s1', OP.addWatch, addWatch(`${c.root}/not/there`, 1));
    await c.call('s1', OP.sync, { path: null });
    await c.call('s1', OP.setData, set(c.root, 'x', -2));
    await c.call('s1', OP.delete, { path: `${c.root}/x/y`, version: 3 });
  },
  async 're-attach with a new timeout; setWatches from a later zxid'(c) {
    await c.open('s1', { timeout: 4000 });
    await c.call('s1', OP.create, create(c.root));
    await c.open('s2', { reattach: 's1', timeout: 6000 });
    await c.awaitClose('s1');
    await c.call('s2', OP.setWatches, setWatches(0x7fff_ffffn, [c.root], [`${c.root}/x`], [c.root]));
    await c.open('s3');
    await c.call('s3', OP.create, create(`${c.root}/x`));
    await c.call('s3', OP.setData, set(c.root, 'd'));
  },
  async 'the watches of a closed connection are gone; the session keeps its ephemerals'(c) {
    await c.open('s1', { timeout: 10_000 });
    await c.open('s2');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.create, create(`${c.root}/e`, '', 1));
    await c.call('s1', OP.getData, get(c.root, true));
    c.drop('s1');
    await c.sleep(200);
    await c.call('s2', OP.setData, set(c.root, 'changed'));
    await c.open('s3', { reattach: 's1', timeout: 10_000 });
    await c.call('s3', OP.getChildren, get(c.root));
    await c.call('s2', OP.setData, set(c.root, 'again'));
  },
  async 'many children, many ephemerals: Java hash order through resizes and deletes'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s2', OP.create, create(c.root));
    for (let i = 0; i < 60; i++) await c.call('s1', OP.create, create(`${c.root}/n${(i * 7919) % 1000}`, '', i % 3 === 0 ? 1 : 0));
    for (let i = 0; i < 20; i++) await c.call('s1', OP.create, create(`${c.root}/lock-`, '', 3));
    await c.call('s1', OP.getChildren, get(c.root));
    await c.call('s1', OP.getEphemerals, { prefixPath: c.root });
    for (let i = 0; i < 60; i += 4) await c.call('s1', OP.delete, del(`${c.root}/n${(i * 7919) % 1000}`));
    await c.call('s2', OP.getChildren, get(c.root));
    await c.call('s2', OP.addWatch, addWatch(c.root, 1));
    await c.call('s1', OP.closeSession, null);
    await c.awaitClose('s1');
    await c.call('s2', OP.getChildren2, get(c.root));
  },
};
