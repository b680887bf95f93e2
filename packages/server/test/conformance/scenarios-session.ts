// Conformance scenarios: handshakes, re-attach, closeSession, expiry, auth and malformed input.
import type { Scenario } from './harness.js';
import { writeAuthPacket, writeSetWatches } from '@zkts/protocol/codec';
import { auth, create, enc, frame, frameWith, get, OP, path, setWatches } from './ops.js';

export const sessionScenarios: Record<string, Scenario> = {
  async 'handshake negotiates and clamps the timeout'(c) {
    await c.open('s1', { timeout: 4000 });
    await c.open('s2', { timeout: 10 });
    await c.open('s3', { timeout: 10_000_000 });
  },
  async 'handshake without the readOnly byte gets none back'(c) {
    await c.open('s1', { readOnly: undefined });
    await c.call('s1', OP.exists, get('/'));
  },
  async 'a client that has seen a later zxid is refused'(c) {
    await c.open('s1');
    await c.open('s2', { lastZxidSeen: 0x7fff_ffff_ffffn });
  },
  async 're-attach with the password closes the old connection'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root, 'x'));
    await c.call('s1', OP.create, create(`${c.root}/e`, '', 1));
    await c.open('s2', { reattach: 's1' });
    await c.awaitClose('s1');
    await c.call('s2', OP.exists, get(`${c.root}/e`));
  },
  async 're-attach with a wrong password is answered as expired'(c) {
    await c.open('s1');
    await c.open('s2', { reattach: 's1', passwd: new Uint8Array(16).fill(7) });
    await c.awaitClose('s2');
    await c.awaitClose('s1');
    await c.open('s3', { reattach: 's1' });
  },
  async 're-attach to an unknown session is answered as expired'(c) {
    await c.open('s1');
    await c.open('s2', { sessionId: 0x1234n, passwd: new Uint8Array(16) });
    await c.awaitClose('s2');
  },
  async 'closeSession deletes the ephemerals in one transaction and fires their watches'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s2', OP.create, create(c.root));
    for (const n of ['a', 'b', 'c', 'zz', 'q1']) await c.call('s1', OP.create, create(`${c.root}/${n}`, '', 1));
    await c.call('s1', OP.create, create(`${c.root}/seq-`, '', 3));
    await c.call('s1', OP.getEphemerals, { prefixPath: '/' });
    for (const n of ['a', 'b', 'c', 'zz', 'q1']) await c.call('s2', OP.exists, get(`${c.root}/${n}`, true));
    await c.call('s2', OP.getChildren, get(c.root, true));
    await c.call('s1', OP.closeSession, null);
    await c.awaitClose('s1');
    await c.call('s2', OP.getChildren2, get(c.root));
  },
  async 'an expired session loses its ephemerals and cannot re-attach'(c) {
    await c.open('s1', { timeout: 1000 });
    await c.open('s2', { timeout: 10_000 });
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.create, create(`${c.root}/e1`, '', 1));
    await c.call('s1', OP.create, create(`${c.root}/e2`, '', 1));
    await c.call('s2', OP.getData, get(`${c.root}/e1`, true));
    await c.call('s2', OP.getChildren, get(c.root, true));
    // s1 stops pinging; the server closes its connection when the session expires.
    await c.awaitClose('s1', 8000);
    await c.call('s2', OP.exists, get(`${c.root}/e1`));
    await c.open('s3', { reattach: 's1' });
  },
  async 'pings keep a session and carry the last zxid'(c) {
    await c.open('s1', { timeout: 1000 });
    for (let i = 0; i < 6; i++) {
      await c.call('s1', OP.ping, null);
      await c.sleep(300);
    }
    await c.call('s1', OP.create, create(c.root));
    await c.call('s1', OP.ping, null);
  },
  async 'digest auth, whoAmI and auth ACLs'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.whoAmI, null);
    await c.call('s1', OP.create, create(c.root, 'x', 0, [{ perms: 31, id: { scheme: 'auth', id: '' } }]));
    await c.call('s1', OP.auth, auth('digest', 'alice:secret'));
    await c.call('s1', OP.auth, auth('digest', 'alice:secret'));
    await c.call('s1', OP.auth, auth('ip', ''));
    await c.call('s1', OP.whoAmI, null);
    await c.call('s1', OP.create, create(c.root, 'x', 0, [{ perms: 31, id: { scheme: 'auth', id: '' } }]));
    await c.call('s1', OP.getACL, path(c.root));
    await c.call('s2', OP.getData, get(c.root));
    await c.call('s2', OP.getACL, path(c.root));
    await c.call('s2', OP.auth, auth('digest', 'alice:wrong'));
    await c.call('s2', OP.getData, get(c.root));
    await c.call('s2', OP.auth, auth('digest', 'alice:secret'));
    await c.call('s2', OP.getData, get(c.root));
    await c.call('s2', OP.delete, { path: c.root, version: -1 });
  },
  async 'the super digest passes every check'(c) {
    await c.open('s1');
    await c.open('s2');
    await c.call('s1', OP.auth, auth('digest', 'bob:pw'));
    await c.call('s1', OP.create, create(c.root, 'x', 0, [{ perms: 31, id: { scheme: 'auth', id: '' } }]));
    await c.call('s2', OP.getData, get(c.root));
    await c.call('s2', OP.auth, auth('digest', 'super:secret'));
    await c.call('s2', OP.whoAmI, null);
    await c.call('s2', OP.getData, get(c.root));
    await c.call('s2', OP.getACL, path(c.root));
    await c.call('s2', OP.delete, { path: c.root, version: -1 });
  },
  async 'an unknown auth scheme fails and closes the connection'(c) {
    await c.open('s1');
    await c.call('s1', OP.auth, auth('nope', 'x'));
    await c.awaitClose('s1');
  },
  async 'an unknown opcode is unimplemented and closes the connection'(c) {
    await c.open('s1');
    await c.raw('s1', frame(5, 55), { xid: 5, op: 55 });
    await c.awaitClose('s1');
  },
  async 'check outside a multi is unimplemented'(c) {
    await c.open('s1');
    await c.raw('s1', frame(5, 13, [0, 0, 0, 1, 0x2f, 0xff, 0xff, 0xff, 0xff]), { xid: 5, op: 13 });
    await c.awaitClose('s1');
  },
  async 'malformed bodies are marshalling errors; a short header closes'(c) {
    await c.open('s1');
    await c.raw('s1', frame(7, OP.getData, [0, 0, 0, 9, 0x2f]), { xid: 7, op: OP.getData });
    await c.raw('s1', frame(8, OP.create, [0, 0, 0, 2, 0x2f, 0x61]), { xid: 8, op: OP.create });
    await c.raw('s1', frame(9, OP.multi, [0, 0, 0, 77, 0, 0xff, 0xff, 0xff, 0xff]), { xid: 9, op: OP.multi });
    await c.call('s1', OP.exists, get('/'));
    await c.raw('s1', Uint8Array.from([0, 0, 0]));
  },
  async 'reconfig is refused on a standalone server; getConfig reads /zookeeper/config'(c) {
    await c.open('s1');
    await c.call('s1', OP.reconfig, { joiningServers: null, leavingServers: null, newMembers: 'server.1=x', curConfigId: -1n });
    await c.call('s1', OP.getData, get('/zookeeper/config'));
    await c.call('s1', OP.getACL, path('/zookeeper/config'));
    await c.call('s1', OP.getChildren2, get('/zookeeper'));
    await c.call('s1', OP.getData, get('/zookeeper/quota'));
    await c.call('s1', OP.setData, { path: '/zookeeper/config', data: null, version: -1 });
    await c.call('s1', OP.delete, { path: '/zookeeper', version: -1 });
    await c.call('s1', OP.delete, { path: '/', version: -1 });
    await c.call('s1', OP.create, create('/zookeeper/quota/x'));
    await c.call('s1', OP.delete, { path: '/zookeeper/quota/x', version: -1 });
  },
  async 'sync and whoAmI'(c) {
    await c.open('s1');
    await c.call('s1', OP.sync, path('/'));
    await c.call('s1', OP.sync, path('/no/such'));
    await c.call('s1', OP.whoAmI, null);
  },
  async 'the special xids: auth -4 and setWatches -8 come back as sent'(c) {
    await c.open('s1');
    await c.call('s1', OP.create, create(c.root));
    await c.raw('s1', frameWith(-4, OP.auth, (w) => writeAuthPacket(w, auth('digest', 'x:y'))), { xid: -4, op: OP.auth });
    await c.call('s1', OP.getData, get(c.root, true));
    await c.raw('s1', frameWith(-8, OP.setWatches, (w) => writeSetWatches(w, setWatches(0n, [c.root], [], [c.root]))), { xid: -8, op: OP.setWatches });
    await c.raw('s1', frameWith(0, OP.exists, (w) => {
      w.writeString(c.root);
      w.writeBool(false);
    }), { xid: 0, op: OP.exists });
    await c.call('s1', OP.setData, { path: c.root, data: enc('v'), version: -1 });
  },
};
