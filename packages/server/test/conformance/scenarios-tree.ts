// Conformance scenarios: nodes, Stats, sequential names, errors, ACL checks, multi and the read opcodes.
import type { Scenario } from './harness.js';
import { acl, create, createTTL, del, EVENT, enc, get, multiCreate, OP, path, set, setAcl } from './ops.js';

export const treeScenarios: Record<string, Scenario> = {
  async 'create in every mode, create2 Stats and getData'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root, 'root'));
    await c.call('s1', OP.create, create(`${c.root}/p`, 'p'));
    await c.call('s1', OP.create2, create(`${c.root}/e`, 'e', 1));
    await c.call('s1', OP.create2, create(`${c.root}/s-`, 's', 2));
    await c.call('s1', OP.create2, create(`${c.root}/es-`, 'es', 3));
    await c.call('s1', OP.createContainer, create(`${c.root}/c`, 'c', 4));
    await c.call('s1', OP.createTTL, createTTL(`${c.root}/t`, 3_600_000n));
    await c.call('s1', OP.createTTL, createTTL(`${c.root}/ts-`, 3_600_000n, 6));
    await c.call('s1', OP.create, create(`${c.root}/nulldata`, null));
    for (const n of ['p', 'e', 'c', 't', 'nulldata']) await c.call('s1', OP.getData, get(`${c.root}/${n}`));
    await c.call('s1', OP.getChildren2, get(c.root));
    await c.call('s1', OP.exists, get(c.root));
  },
  async 'create errors in ZooKeeper order'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.create, create(`${c.root}/missing/x`));
    await c.call('s1', OP.create, create(`${c.root}/e`, '', 1));
    await c.call('s1', OP.create, create(`${c.root}/e/x`));
    await c.call('s1', OP.create, create(`${c.root}/a`, '', 0, [{ perms: 31, id: { scheme: 'auth', id: '' } }]));
    await c.call('s1', OP.create, create(`${c.root}/a`, '', 0, []));
    await c.call('s1', OP.create, create(`${c.root}/a`, '', 0, acl(31, 'world', 'nobody')));
    await c.call('s1', OP.create, create(`${c.root}/a`, '', 0, acl(31, 'digest', 'nocolon')));
    await c.call('s1', OP.create, create(`${c.root}/a`, '', 0, acl(31, 'ip', '300.1.1.1')));
    await c.call('s1', OP.create, create(`${c.root}/missing/x`, '', 0, []));
    for (const p of ['a', `${c.root}/`, `${c.root}//b`, `${c.root}/.`, `${c.root}/..`, '/', `${c.root}/a\u0001`]) {
      await c.call('s1', OP.create, create(p));
    }
    await c.call('s1', OP.create, create(`${c.root}/f`, '', 7));
    await c.call('s1', OP.create, create(`${c.root}/f`, '', -1));
    await c.call('s1', OP.createTTL, createTTL(`${c.root}/t`, 0n));
    await c.call('s1', OP.createTTL, createTTL(`${c.root}/t`, 100n, 0));
    await c.call('s1', OP.create, create(`${c.root}/t`, '', 5));
    await c.call('s1', OP.createTTL, createTTL(`${c.root}/t`, 0x1_0000_0000_00n));
    await c.call('s1', OP.create, create(`${c.root}/c`, '', 4));
    await c.call('s1', OP.exists, get(`${c.root}/c`));
  },
  async 'sequential names come from the parent cversion'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.create, create(`${c.root}/x`));
    await c.call('s1', OP.create, create(`${c.root}/q-`, '', 2));
    await c.call('s1', OP.delete, del(`${c.root}/x`));
    await c.call('s1', OP.create, create(`${c.root}/q-`, '', 2));
    await c.call('s1', OP.create, create(`${c.root}/`, '', 2));
    await c.call('s1', OP.create, create(`${c.root}/q-`, '', 0));
    await c.call('s1', OP.getChildren2, get(c.root));
  },
  async 'delete: versions, NotEmpty, NoNode, special paths'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.create, create(`${c.root}/d`));
    await c.call('s1', OP.create, create(`${c.root}/d/x`));
    await c.call('s1', OP.delete, del(`${c.root}/d`));
    await c.call('s1', OP.delete, del(`${c.root}/d/x`, 5));
    await c.call('s1', OP.delete, del(`${c.root}/d/x`, 0));
    await c.call('s1', OP.delete, del(`${c.root}/d/x`));
    await c.call('s1', OP.delete, del(`${c.root}/nope/x`));
    await c.call('s1', OP.delete, del(`${c.root}/d/`));
    await c.call('s1', OP.delete, del('nope'));
    await c.call('s1', OP.delete, del('/zookeeper/quota'));
    await c.call('s1', OP.getChildren2, get(c.root));
    await c.call('s1', OP.delete, del(`${c.root}/d`));
    await c.call('s1', OP.getChildren2, get(c.root));
  },
  async 'setData: versions and Stats'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root, 'a'));
    await c.call('s1', OP.setData, set(c.root, 'bb'));
    await c.call('s1', OP.setData, set(c.root, 'ccc', 1));
    await c.call('s1', OP.setData, set(c.root, 'dddd', 1));
    await c.call('s1', OP.setData, set(c.root, null, 2));
    await c.call('s1', OP.setData, set(`${c.root}/x`, 'x'));
    await c.call('s1', OP.setData, set(`${c.root}/`, 'x'));
    await c.call('s1', OP.getData, get(c.root));
  },
  async 'setACL/getACL: aversion, checks and masking'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.auth, { type: 0, scheme: 'digest', auth: enc('u:p') });
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.setACL, setAcl(c.root, [...acl(1, 'world', 'anyone'), ...acl(31, 'digest', 'u:ZnXBTR0Kw4qjnjhnrB4ZJVTQpFM=')]));
    await c.call('s1', OP.setACL, setAcl(c.root, acl(31, 'world', 'anyone'), 0));
    await c.call('s1', OP.setACL, setAcl(c.root, [], -1));
    await c.call('s1', OP.getACL, path(c.root));
    await c.call('s2', OP.getACL, path(c.root));
    await c.call('s2', OP.setACL, setAcl(c.root, acl(31, 'world', 'anyone')));
    await c.call('s2', OP.setData, set(c.root, 'x'));
    await c.call('s2', OP.getData, get(c.root));
    await c.call('s2', OP.create, create(`${c.root}/child`));
    await c.call('s2', OP.exists, get(c.root));
    await c.call('s1', OP.setACL, setAcl(c.root, acl(31, 'auth', ''), 1));
    await c.call('s1', OP.getACL, path(c.root));
    await c.call('s2', OP.exists, get(c.root));
    await c.call('s2', OP.getACL, path(c.root));
    await c.call('s2', OP.getChildren, get(c.root));
    await c.call('s2', OP.getAllChildrenNumber, path(c.root));
  },
  async 'ip ACLs with CIDR masks'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.create, create(`${c.root}/a`, 'a', 0, acl(31, 'ip', '127.0.0.1')));
    await c.call('s1', OP.create, create(`${c.root}/b`, 'b', 0, acl(31, 'ip', '127.0.0.0/8')));
    await c.call('s1', OP.create, create(`${c.root}/c`, 'c', 0, acl(31, 'ip', '10.0.0.0/8')));
    await c.call('s1', OP.create, create(`${c.root}/d`, 'd', 0, acl(31, 'ip', '127.0.0.1/33')));
    for (const n of ['a', 'b', 'c']) await c.call('s1', OP.getData, get(`${c.root}/${n}`));
  },
  async 'permissions: CREATE and DELETE on the parent, WRITE, READ'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.create, create(`${c.root}/r`, 'r', 0, acl(1, 'world', 'anyone')));
    await c.call('s1', OP.create, create(`${c.root}/r/x`));
    await c.call('s1', OP.setData, set(`${c.root}/r`, 'x'));
    await c.call('s1', OP.create, create(`${c.root}/cd`, '', 0, acl(4 | 1, 'world', 'anyone')));
    await c.call('s1', OP.create, create(`${c.root}/cd/x`));
    await c.call('s1', OP.delete, del(`${c.root}/cd/x`));
    await c.call('s1', OP.create, create(`${c.root}/w`, '', 0, acl(2, 'world', 'anyone')));
    await c.call('s1', OP.getData, get(`${c.root}/w`));
    await c.call('s1', OP.exists, get(`${c.root}/w`));
    await c.call('s1', OP.setData, set(`${c.root}/w`, 'y'));
    await c.call('s1', OP.getChildren2, get(`${c.root}/w`));
  },
  async 'multi: all or nothing, per-op results'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.multi, [
      multiCreate(`${c.root}/a`, 'a'),
      { op: 'create2', ...create(`${c.root}/a/b`, 'b') },
      { op: 'setData', ...set(`${c.root}/a`, 'a2', 0) },
      { op: 'check', path: `${c.root}/a`, version: 1 },
      multiCreate(`${c.root}/s-`, '', 2),
      multiCreate(`${c.root}/s-`, '', 2),
      { op: 'delete', ...del(`${c.root}/a/b`) },
      { op: 'createContainer', ...create(`${c.root}/cont`, '', 4) },
      { op: 'createTTL', ...createTTL(`${c.root}/ttl`, 3_600_000n) },
    ]);
    await c.call('s1', OP.multi, [
      multiCreate(`${c.root}/x`),
      { op: 'setData', ...set(`${c.root}/a`, 'z') },
      { op: 'check', path: `${c.root}/a`, version: 0 },
      multiCreate(`${c.root}/y`),
    ]);
    await c.call('s1', OP.multi, [multiCreate(`${c.root}/a`)]);
    await c.call('s1', OP.multi, []);
    await c.call('s1', OP.multi, [{ op: 'delete', ...del(c.root) }, multiCreate(`${c.root}/zz`)]);
    await c.call('s1', OP.getChildren2, get(c.root));
    await c.call('s1', OP.getData, get(`${c.root}/a`));
  },
  async 'multiRead: each read answers on its own'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root, 'r'));
    await c.call('s1', OP.create, create(`${c.root}/k`, 'k'));
    await c.call('s1', OP.multiRead, [
      { op: 'getData', path: c.root, watch: false },
      { op: 'getChildren', path: c.root, watch: true },
      { op: 'getData', path: `${c.root}/none`, watch: false },
      { op: 'getChildren', path: `${c.root}/none`, watch: false },
    ]);
    await c.call('s1', OP.create, create(`${c.root}/k2`));
  },
  async 'getAllChildrenNumber and getEphemerals with prefixes'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.create, create(c.root));
    for (const n of ['a', 'b', 'a/x', 'a/y', 'b/z']) await c.call('s1', OP.create, create(`${c.root}/${n}`));
    for (const n of ['e1', 'e2', 'a/e3', 'b/e4', 'longer-name-7']) await c.call('s1', OP.create, create(`${c.root}/${n}`, '', 1));
    await c.call('s2', OP.create, create(`${c.root}/other`, '', 1));
    await c.call('s1', OP.getAllChildrenNumber, path(c.root));
    await c.call('s1', OP.getAllChildrenNumber, path(`${c.root}/a`));
    await c.call('s1', OP.getAllChildrenNumber, path(`${c.root}/nope`));
    await c.call('s1', OP.getEphemerals, { prefixPath: '/' });
    await c.call('s1', OP.getEphemerals, { prefixPath: `${c.root}/a` });
    await c.call('s1', OP.getEphemerals, { prefixPath: ' ' });
    await c.call('s2', OP.getEphemerals, { prefixPath: '/' });
  },
  async 'children come back in ZooKeeper order'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    const names = ['zeta', 'alpha', 'm', 'lock-0000000001', 'x1', 'x2', 'beta', 'node', 'Q', 'long-child-name', '42', 'é', 'a-b'];
    for (const n of names) await c.call('s1', OP.create, create(`${c.root}/${n}`));
    await c.call('s1', OP.getChildren, get(c.root));
    for (const n of names.slice(0, 8)) await c.call('s1', OP.delete, del(`${c.root}/${n}`));
    await c.call('s1', OP.create, create(`${c.root}/zeta`));
    await c.call('s1', OP.getChildren, get(c.root));
  },
  async 'empty containers are reaped and expired TTL nodes deleted'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.createContainer, create(`${c.root}/never`, '', 4));
    await c.call('s1', OP.createTTL, createTTL(`${c.root}/t`, 300n));
    await c.call('s1', OP.exists, get(`${c.root}/t`, true));
    // Each reaping is seen by its watch, so the scenario waits as long as a loaded machine needs.
    await c.awaitEvent('s1', EVENT.NodeDeleted, `${c.root}/t`);
    // Containers emptied by one transaction are reaped in one pass, in the order of the HashSet ZooKeeper
    // gathers them in (not the order they were made): their watches' events show that order.
    const names = ['c', 'd', 'e', 'f', 'g', 'h'].map((n) => `${c.root}/${n}`);
    for (const name of names) {
      await c.call('s1', OP.createContainer, create(name, '', 4));
      await c.call('s1', OP.create, create(`${name}/kid`));
      await c.call('s1', OP.exists, get(name, true));
    }
    await c.call('s1', OP.multi, names.map((name) => ({ op: 'delete' as const, ...del(`${name}/kid`) })));
    for (const name of names) await c.awaitEvent('s1', EVENT.NodeDeleted, name);
    await c.call('s1', OP.getChildren, get(c.root));
  },
};
