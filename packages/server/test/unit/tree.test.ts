// The data tree's pure logic: path rules, sequential suffixes, ephemeral-owner encodings, Stats, ACL checks,
// Java's HashSet order and the container/TTL candidates.
import { describe, expect, it } from 'vitest';
import { digestCredential } from '@zkts/testkit';
import { digestOf, fixupACL, hasPermission, ipMatches, maskDigests, OPEN_ACL } from '../../src/tree/acl.js';
import { reapCandidates } from '../../src/tree/container-reaper.js';
import { DataTree } from '../../src/tree/data-tree.js';
import { CONTAINER_EPHEMERAL_OWNER, ephemeralKind, isValidTtl, ttlOf, ttlOwner } from '../../src/tree/ephemeral-type.js';
import { javaStringHash, JavaHashSet } from '../../src/tree/java-hash-order.js';
import { invalidPathReason, sequenceSuffix } from '../../src/tree/path.js';
import { applyTxn } from '../../src/tree/txn.js';
import { prepCreate, PrepView } from '../../src/requests/prep.js';

describe('paths', () => {
  it('validates as PathUtils.validatePath', () => {
    for (const ok of ['/', '/a', '/a/b', '/a.b', '/...', '/a/..b', '/é']) expect(invalidPathReason(ok)).toBeUndefined();
    for (const bad of ['', 'a', '/a/', '//a', '/a//b', '/.', '/a/..', '/a\u0000', '/a\u0001', '/\ud800x', '/\ufff0']) {
      expect(invalidPathReason(bad)).toBeDefined();
    }
  });
  it('formats sequence numbers as %010d', () => {
    expect(sequenceSuffix(0)).toBe('0000000000');
    expect(sequenceSuffix(42)).toBe('0000000042');
    expect(sequenceSuffix(2147483647)).toBe('2147483647');
    expect(sequenceSuffix(-5)).toBe('-000000005');
    expect(sequenceSuffix(-2147483648)).toBe('-2147483648');
  });
});

describe('ephemeral owners', () => {
  it('encodes TTL nodes with 0xFF in the top byte and containers as Long.MIN_VALUE', () => {
    const owner = ttlOwner(1000n);
    expect(BigInt.asUintN(64, owner).toString(16)).toBe('ff000000000003e8');
    expect(ephemeralKind(owner, true)).toBe('ttl');
    expect(ephemeralKind(owner, false)).toBe('normal');
    expect(ttlOf(owner)).toBe(1000n);
    expect(ephemeralKind(CONTAINER_EPHEMERAL_OWNER, true)).toBe('container');
    expect(ephemeralKind(0n, true)).toBe('void');
    expect(ephemeralKind(0x10000n, true)).toBe('normal');
    expect([isValidTtl(0n), isValidTtl(1n), isValidTtl(0xff_ffff_ffffn), isValidTtl(0x100_0000_0000n)]).toEqual([false, true, true, false]);
  });
});

describe('ACLs', () => {
  const alice = { scheme: 'digest', id: digestOf('alice:secret') };
  it('digests as DigestAuthenticationProvider', () => {
    expect(digestOf('super:secret')).toBe(digestCredential('super', 'secret'));
    expect(digestOf('super:secret')).toBe('super:lK75jTNcA+U9vtVEw5vB51mj/w4=');
    expect(digestOf('nocolon')).toMatch(/^nocolon:/);
  });
  it('matches ip ids with CIDR masks', () => {
    expect(ipMatches('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(ipMatches('127.0.0.1', '127.0.0.0/8')).toBe(true);
    expect(ipMatches('127.1.2.3', '127.0.0.0/16')).toBe(false);
    expect(ipMatches('10.1.2.3', '10.0.0.0/8')).toBe(true);
    expect(ipMatches('10.1.2.3', '10.0.0.0/33')).toBe(false);
    expect(ipMatches('10.1.2.3', '0.0.0.0/0')).toBe(true);
  });
  it('fixes up ACLs: auth expands to digest ids, bad ids are refused', () => {
    expect(fixupACL([{ perms: 31, id: { scheme: 'auth', id: '' } }], [{ scheme: 'ip', id: '127.0.0.1' }])).toBeUndefined();
    expect(fixupACL([{ perms: 31, id: { scheme: 'auth', id: '' } }], [{ scheme: 'ip', id: '127.0.0.1' }, alice])).toEqual([{ perms: 31, id: alice }]);
    expect(fixupACL([], [])).toBeUndefined();
    expect(fixupACL([{ perms: 1, id: { scheme: 'digest', id: 'nocolon' } }], [])).toBeUndefined();
    expect(fixupACL([...OPEN_ACL, ...OPEN_ACL], [])).toEqual(OPEN_ACL);
  });
  it('checks permissions; super passes; getACL masks digests', () => {
    const acl = [{ perms: 1, id: { scheme: 'world', id: 'anyone' } }, { perms: 31, id: alice }];
    expect(hasPermission(acl, 1, [])).toBe(true);
    expect(hasPermission(acl, 2, [])).toBe(false);
    expect(hasPermission(acl, 2, [alice])).toBe(true);
    expect(hasPermission(acl, 16, [{ scheme: 'super', id: '' }])).toBe(true);
    expect(maskDigests(acl)[1]?.id.id).toBe('alice:x');
  });
});

describe('Java HashSet order', () => {
  it('hashes strings as String.hashCode', () => {
    expect(javaStringHash('')).toBe(0);
    expect(javaStringHash('a')).toBe(97);
    expect(javaStringHash('hello')).toBe(99162322);
    expect(javaStringHash('polygenelubricants')).toBe(-2147483648);
  });
  it('iterates by bucket, ties in insertion order, growing at 3/4', () => {
    const set = new JavaHashSet(8);
    for (const n of ['b', 'a', 'c', 'i', 'q']) set.add(n);
    // 'a'=97→1, 'b'=98→2, 'c'=99→3, 'i'=105→1, 'q'=113→1 in 8 buckets.
    expect(set.ordered()).toEqual(['a', 'i', 'q', 'b', 'c']);
    for (const n of ['d', 'e']) set.add(n);
    // Seven entries: 16 buckets; 'q'=113→1, 'a'→1, 'i'=105→9.
    expect(set.ordered()).toEqual(['a', 'q', 'b', 'c', 'd', 'e', 'i']);
  });
});

describe('DataTree', () => {
  it('keeps Stats as ZooKeeper: cversion counts changes, pzxid, ephemerals per session', () => {
    const tree = new DataTree(true);
    expect(tree.statOf(tree.getNode('/') ?? expect.unreachable()).cversion).toBe(-1);
    const acl = OPEN_ACL;
    applyTxn(tree, { type: 'create', op: 'create', path: '/a', data: new Uint8Array([1]), acl, owner: 0n, parentCVersion: 1 }, 1n, 100n);
    applyTxn(tree, { type: 'create', op: 'create', path: '/a/e', data: null, acl, owner: 7n, parentCVersion: 1 }, 2n, 101n);
    applyTxn(tree, { type: 'create', op: 'create', path: '/a/f', data: null, acl, owner: 7n, parentCVersion: 2 }, 3n, 102n);
    expect(tree.ephemeralsOf(7n).sort()).toEqual(['/a/e', '/a/f']);
    applyTxn(tree, { type: 'closeSession', sessionId: 7n, paths: tree.ephemeralsOf(7n) }, 4n, 103n);
    const a = tree.statOf(tree.getNode('/a') ?? expect.unreachable());
    expect([a.cversion, a.numChildren, a.pzxid, a.czxid, a.dataLength]).toEqual([4, 0, 4n, 1n, 1]);
    expect(tree.lastZxid).toBe(4n);
    expect(tree.allChildrenNumber('/')).toBe(4);
  });
  it('finds containers that had children and TTL nodes past their TTL', () => {
    const tree = new DataTree(true);
    const acl = OPEN_ACL;
    applyTxn(tree, { type: 'create', op: 'createContainer', path: '/c', data: null, acl, owner: CONTAINER_EPHEMERAL_OWNER, parentCVersion: 1 }, 1n, 1000n);
    applyTxn(tree, { type: 'create', op: 'createContainer', path: '/n', data: null, acl, owner: CONTAINER_EPHEMERAL_OWNER, parentCVersion: 2 }, 2n, 1000n);
    applyTxn(tree, { type: 'create', op: 'create', path: '/c/k', data: null, acl, owner: 0n, parentCVersion: 1 }, 3n, 1000n);
    applyTxn(tree, { type: 'create', op: 'createTTL', path: '/t', data: null, acl, owner: ttlOwner(500n), parentCVersion: 3 }, 4n, 1000n);
    expect(reapCandidates(tree, 1400)).toEqual([]);
    applyTxn(tree, { type: 'delete', path: '/c/k' }, 5n, 1000n);
    expect(reapCandidates(tree, 1600)).toEqual(['/c', '/t']);
  });
  it('lists the candidates in the order of the HashSet ZooKeeper gathers them in, not the order they were made', () => {
    const tree = new DataTree(true);
    const acl = OPEN_ACL;
    let zxid = 0n;
    const apply = (txn: Parameters<typeof applyTxn>[1]): void => {
      applyTxn(tree, txn, ++zxid, 1000n);
    };
    // A TTL node first, then containers: ZooKeeper visits containers first, then TTL nodes, into one HashSet.
    apply({ type: 'create', op: 'create', path: '/c30', data: null, acl, owner: 0n, parentCVersion: 1 });
    apply({ type: 'create', op: 'createTTL', path: '/c30/t', data: null, acl, owner: ttlOwner(1n), parentCVersion: 1 });
    for (const [i, name] of ['/x', '/c30/c', '/a'].entries()) {
      apply({ type: 'create', op: 'createContainer', path: name, data: null, acl, owner: CONTAINER_EPHEMERAL_OWNER, parentCVersion: i + 2 });
      apply({ type: 'create', op: 'create', path: `${name}/k`, data: null, acl, owner: 0n, parentCVersion: 1 });
      apply({ type: 'delete', path: `${name}/k` });
    }
    // Buckets of String.hashCode in a 16-slot table: /a 2, /x 9; /c30/t before /c30/c (ZooKeeper 3.8 deletes so).
    const order = reapCandidates(tree, 2000);
    expect(order).toEqual([...order].sort((p, q) => bucket(p) - bucket(q)));
    expect(order.indexOf('/a')).toBeLessThan(order.indexOf('/x'));
    expect(order.indexOf('/c30/t')).toBeLessThan(order.indexOf('/c30/c'));
  });
});

/** The bucket of `s` in a 16-slot java.util.HashMap. */
function bucket(s: string): number {
  const h = javaStringHash(s);
  return (h ^ (h >>> 16)) & 15;
}

describe('sequential names past 2^31', () => {
  it('as ZooKeeper: the tree keeps the cversion at 2^31 - 1 (createNode only raises it), a multi wraps to a signed name', () => {
    const tree = new DataTree(true);
    applyTxn(tree, { type: 'create', op: 'create', path: '/q', data: null, acl: OPEN_ACL, owner: 0n, parentCVersion: 1 }, 1n, 1n);
    (tree.getNode('/q') ?? expect.unreachable()).stat.cversion = 2147483647;
    const create = (view: PrepView): string => {
      const ctx = { sessionId: 5n, authInfo: [], zxid: tree.lastZxid + 1n, time: 2n, extendedTypesEnabled: true };
      const txn = prepCreate(view, ctx, 'create', { path: '/q/s-', data: null, acl: OPEN_ACL.slice(), flags: 2, ttl: -1n });
      if (txn.type !== 'create') throw new Error('expected a create');
      return txn.path;
    };
    // Two creates in one multi: the change record's cversion wraps, and %010d prints the sign.
    const multi = new PrepView(tree);
    expect([create(multi), create(multi)]).toEqual(['/q/s-2147483647', '/q/s--2147483648']);
    // One at a time: the first lands, the next gets the same name (NodeExists), as in ZooKeeper 3.8.
    const ctx = { sessionId: 5n, authInfo: [], zxid: 2n, time: 2n, extendedTypesEnabled: true };
    applyTxn(tree, prepCreate(new PrepView(tree), ctx, 'create', { path: '/q/s-', data: null, acl: OPEN_ACL.slice(), flags: 2, ttl: -1n }), 2n, 2n);
    expect(() => create(new PrepView(tree))).toThrow('NODE_EXISTS');
    // Reported cversion: stored × 2 − children, in int arithmetic.
    expect(tree.statOf(tree.getNode('/q') ?? expect.unreachable()).cversion).toBe((Math.imul(2147483647, 2) - 1) | 0);
  });
});
