// Conformance scenarios: one-shot, persistent and recursive watches, their order relative to replies,
// setWatches replay, checkWatches/removeWatches, and watches filtered by ACL.
import type { Scenario } from './harness.js';
import { acl, addWatch, create, del, get, OP, set, setAcl, setWatches, watchReq } from './ops.js';

export const watchScenarios: Record<string, Scenario> = {
  async 'exists on a missing node leaves a watch; getChildren on one does not'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s2', OP.exists, get(`${c.root}/a`, true));
    await c.call('s2', OP.getChildren, get(`${c.root}/b`, true));
    await c.call('s2', OP.getData, get(`${c.root}/c`, true));
    await c.call('s1', OP.create, create(`${c.root}/a`));
    await c.call('s1', OP.create, create(`${c.root}/b`));
    await c.call('s1', OP.create, create(`${c.root}/c`));
    await c.call('s1', OP.create, create(`${c.root}/b/x`));
  },
  async 'a writer sees its own watch events before its reply'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.getData, get(c.root, true));
    await c.call('s1', OP.getChildren, get(c.root, true));
    await c.call('s1', OP.setData, set(c.root, 'x'));
    await c.call('s1', OP.create, create(`${c.root}/k`));
    await c.call('s1', OP.setData, set(c.root, 'y'));
  },
  async 'one-shot watches fire once; delete fires one NodeDeleted per session'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.create, create(`${c.root}/n`, 'v'));
    await c.call('s2', OP.getData, get(`${c.root}/n`, true));
    await c.call('s2', OP.exists, get(`${c.root}/n`, true));
    await c.call('s2', OP.getChildren, get(`${c.root}/n`, true));
    await c.call('s2', OP.getChildren, get(c.root, true));
    await c.call('s1', OP.delete, del(`${c.root}/n`));
    await c.call('s1', OP.create, create(`${c.root}/n`, 'v'));
    await c.call('s1', OP.setData, set(`${c.root}/n`, 'w'));
  },
  async 'data watches: NodeDataChanged, then gone'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s2', OP.getData, get(c.root, true));
    await c.call('s2', OP.getData, get(c.root, true));
    await c.call('s1', OP.setData, set(c.root, '1'));
    await c.call('s1', OP.setData, set(c.root, '2'));
    await c.call('s2', OP.exists, get(c.root, true));
    await c.call('s1', OP.setData, set(c.root, '3'));
  },
  async 'persistent watches see every change of their node'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s2', OP.addWatch, addWatch(c.root, 0));
    await c.call('s2', OP.addWatch, addWatch(`${c.root}/later`, 0));
    await c.call('s1', OP.setData, set(c.root, 'a'));
    await c.call('s1', OP.setData, set(c.root, 'b'));
    await c.call('s1', OP.create, create(`${c.root}/k`));
    await c.call('s1', OP.create, create(`${c.root}/k/deep`));
    await c.call('s1', OP.create, create(`${c.root}/later`));
    await c.call('s1', OP.delete, del(`${c.root}/later`));
    await c.call('s1', OP.delete, del(`${c.root}/k/deep`));
    await c.call('s1', OP.delete, del(`${c.root}/k`));
  },
  async 'recursive watches see the subtree but no NodeChildrenChanged'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s2', OP.addWatch, addWatch(c.root, 1));
    await c.call('s1', OP.create, create(`${c.root}/a`));
    await c.call('s1', OP.create, create(`${c.root}/a/b`));
    await c.call('s1', OP.setData, set(`${c.root}/a/b`, 'x'));
    await c.call('s1', OP.create, create(`${c.root}/a/b/c`, '', 1));
    await c.call('s1', OP.delete, del(`${c.root}/a/b/c`));
    await c.call('s1', OP.setData, set(c.root, 'r'));
    await c.call('s2', OP.getData, get(`${c.root}/a`, true));
    await c.call('s1', OP.setData, set(`${c.root}/a`, 'changed'));
    await c.call('s1', OP.setData, set(`${c.root}/a`, 'again'));
  },
  async 'a one-shot watch replaces the persistent mode on the same path'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s2', OP.addWatch, addWatch(c.root, 0));
    await c.call('s2', OP.getData, get(c.root, true));
    await c.call('s1', OP.setData, set(c.root, '1'));
    await c.call('s1', OP.setData, set(c.root, '2'));
    await c.call('s1', OP.create, create(`${c.root}/k`));
  },
  async 'checkWatches and removeWatches by type'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.checkWatches, watchReq(c.root, 2));
    await c.call('s1', OP.removeWatches, watchReq(c.root, 3));
    await c.call('s1', OP.getData, get(c.root, true));
    await c.call('s2', OP.checkWatches, watchReq(c.root, 2));
    await c.call('s1', OP.checkWatches, watchReq(c.root, 1));
    await c.call('s1', OP.checkWatches, watchReq(c.root, 3));
    await c.call('s1', OP.checkWatches, watchReq(c.root, 4));
    await c.call('s1', OP.checkWatches, watchReq(c.root, 9));
    await c.call('s1', OP.getChildren, get(c.root, true));
    await c.call('s1', OP.removeWatches, watchReq(c.root, 2));
    await c.call('s1', OP.removeWatches, watchReq(c.root, 2));
    await c.call('s1', OP.removeWatches, watchReq(c.root, 5));
    await c.call('s1', OP.addWatch, addWatch(c.root, 1));
    await c.call('s1', OP.removeWatches, watchReq(c.root, 3));
    await c.call('s1', OP.addWatch, addWatch(c.root, 7));
    await c.call('s1', OP.create, create(`${c.root}/x`));
  },
  async 'setWatches fires for what changed after the client zxid and re-registers the rest'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.create, create(c.root));
    for (const n of ['same', 'changed', 'gone', 'kids', 'kidsSame']) await c.call('s1', OP.create, create(`${c.root}/${n}`));
    const mark = await c.call('s1', OP.exists, get(c.root));
    const zxid = mark.kind === 'reply' ? mark.zxid : 0n;
    await c.call('s1', OP.setData, set(`${c.root}/changed`, 'x'));
    await c.call('s1', OP.delete, del(`${c.root}/gone`));
    await c.call('s1', OP.create, create(`${c.root}/kids/k`));
    await c.call('s2', OP.setWatches, setWatches(
      zxid,
      [`${c.root}/same`, `${c.root}/changed`, `${c.root}/gone`],
      [`${c.root}/same`, `${c.root}/absent`],
      [`${c.root}/kids`, `${c.root}/kidsSame`, `${c.root}/gone`],
    ));
    await c.call('s1', OP.setData, set(`${c.root}/same`, 'y'));
    await c.call('s1', OP.create, create(`${c.root}/absent`));
    await c.call('s1', OP.create, create(`${c.root}/kidsSame/k`));
    await c.call('s2', OP.setWatches2, {
      ...setWatches(zxid, [], [], []),
      persistentWatches: [`${c.root}/same`],
      persistentRecursiveWatches: [`${c.root}/kids`],
    });
    await c.call('s1', OP.setData, set(`${c.root}/same`, 'z'));
    await c.call('s1', OP.setData, set(`${c.root}/kids/k`, 'z'));
  },
  async 'watch events are not delivered without READ on the node'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.auth, { type: 0, scheme: 'digest', auth: new TextEncoder().encode('own:er') });
    await c.call('s1', OP.create, create(c.root));
    await c.call('s2', OP.exists, get(`${c.root}/secret`, true));
    await c.call('s2', OP.getChildren, get(c.root, true));
    await c.call('s1', OP.create, create(`${c.root}/secret`, 's', 0, acl(31, 'auth', '')));
    await c.call('s2', OP.addWatch, addWatch(c.root, 1));
    await c.call('s1', OP.setData, set(`${c.root}/secret`, 't'));
    await c.call('s1', OP.setACL, setAcl(c.root, acl(31, 'auth', '')));
    await c.call('s1', OP.create, create(`${c.root}/open`));
    await c.call('s1', OP.setData, set(c.root, 'r'));
  },
};
