// Helpers of the persistence tests: a workload touching every kind of node and transaction, and a dump of a
// server's whole tree as a client sees it (data, Stat, ACL, children), to compare two servers or two runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { connect, type ZkClient } from '@zkts/protocol';

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `zkts-${prefix}-`));
}

export interface DumpedNode {
  path: string;
  data: string | null;
  stat: Record<string, string>;
  acl: string[];
  children: string[];
}

/** Every node under `/` in path order (/zookeeper/config's data left out: each server writes its own). */
export async function dumpTree(zk: ZkClient): Promise<DumpedNode[]> {
  const out: DumpedNode[] = [];
  const visit = async (path: string): Promise<void> => {
    const { data, stat } = await zk.getData(path);
    const { acl } = await zk.getACL(path);
    const children = [...(await zk.getChildren(path)).children].sort();
    const text = path === '/zookeeper/config' ? null : data === null ? null : Buffer.from(data).toString('latin1');
    const statText = Object.fromEntries(Object.entries(stat).map(([k, v]) => [k, String(v)]));
    out.push({ path, data: text, stat: statText, acl: acl.map((a) => `${a.perms}:${a.id.scheme}:${a.id.id}`), children });
    for (const child of children) await visit(path === '/' ? `/${child}` : `${path}/${child}`);
  };
  await visit('/');
  return out;
}

const DIGEST = { perms: 31, id: { scheme: 'digest', id: 'bob:Dq7BDyJw/8yNcfpFc9FCKdCCJbE=' } };

/**
 * Writes a varied tree through `connectString`: persistent, sequential, container (with a child), TTL,
 * null and binary data, ACLs, setData/setACL/delete, a multi and a failed multi, an error txn. Returns an
 * open session that owns two ephemerals (the caller closes it or keeps it).
 */
export async function writeWorkload(connectString: string): Promise<ZkClient> {
  const zk = await connect(connectString, { sessionTimeout: 30_000 });
  await zk.create('/app', 'root-data');
  await zk.create('/app/null', null);
  await zk.create('/app/bin', new Uint8Array([0, 1, 2, 255, 254]));
  for (let i = 0; i < 3; i++) await zk.create('/app/seq-', `s${i}`, { mode: 'persistent-sequential' });
  await zk.create('/app/gone', 'x');
  await zk.delete('/app/gone');
  await zk.create('/app/acl', 'secret', { acl: [DIGEST, { perms: 1, id: { scheme: 'world', id: 'anyone' } }] });
  await zk.create('/app/acl2', 'open');
  await zk.setACL('/app/acl2', [{ perms: 3, id: { scheme: 'world', id: 'anyone' } }], { version: 0 });
  await zk.setData('/app', 'v1');
  await zk.setData('/app', 'v2', { version: 1 });
  await zk.create('/box', null, { mode: 'container' });
  await zk.create('/box/item', 'i');
  await zk.create('/ttl', 'short-lived', { mode: 'persistent-ttl', ttl: 3_600_000 });
  await zk.create('/ttl-seq-', null, { mode: 'persistent-sequential-ttl', ttl: 60_000 });
  await zk.multi([
    { op: 'create', path: '/m', data: 'multi' },
    { op: 'create', path: '/m/a', mode: 'persistent-sequential' },
    { op: 'setData', path: '/app/null', data: 'now-set' },
    { op: 'check', path: '/app', version: 2 },
  ]);
  await zk.multi([{ op: 'create', path: '/never' }, { op: 'delete', path: '/missing' }]).catch(() => undefined);
  await zk.delete('/app', { version: 99 }).catch(() => undefined);
  await zk.create('/app/eph', 'mine', { mode: 'ephemeral' });
  await zk.create('/app/eph-', null, { mode: 'ephemeral-sequential' });
  return zk;
}
