// Pure pieces of the client: paths, connect strings, ACL helpers, the watch manager, hosts, xids.
import { describe, expect, it } from 'vitest';
import { Acls, InvalidArgumentError, Perms, basename, digestId, joinPath, parentPath, parseConnectString, validatePath } from '../../src/index.js';
import { validateAcl } from '../../src/client/acl.js';
import { Chroot } from '../../src/client/chroot.js';
import { HostProvider } from '../../src/client/session/host-provider.js';
import { SessionIdentity } from '../../src/client/session/identity.js';
import { canTransition, isTerminal } from '../../src/client/session/session-state.js';
import { WatchManager, setWatchesBatches, type Watcher } from '../../src/client/watches/watch-manager.js';

describe('validatePath (PathUtils rules)', () => {
  it.each(['/', '/a', '/a/b', '/a.b', '/..a', '/a..', '/.a', '/zookeeper', '/é/日本'])('accepts %j', (p) => {
    expect(() => validatePath(p)).not.toThrow();
  });
  it.each(['', 'a', 'a/b', '/a/', '//', '/a//b', '/.', '/..', '/a/./b', '/a/../b', '/a/.', '/\u0000', '/\u001f', '/\u007f', '/\u009f', '/\ud800', '/\uf8ff', '/\ufff0', '/\uffff'])(
    'refuses %j',
    (p) => {
      expect(() => validatePath(p)).toThrow(InvalidArgumentError);
    },
  );
  it('lets a sequential path end with /', () => {
    expect(() => validatePath('/a/', { sequential: true })).not.toThrow();
    expect(() => validatePath('/a//', { sequential: true })).toThrow(InvalidArgumentError);
  });
  it('joins, splits and names paths', () => {
    expect(joinPath('/a', 'b/', '/c')).toBe('/a/b/c');
    expect(joinPath('/')).toBe('/');
    expect(parentPath('/a/b')).toBe('/a');
    expect(parentPath('/a')).toBe('/');
    expect(basename('/a/b')).toBe('b');
  });
  it('validatePath gives the rule-by-rule verdict, counter included for sequential paths, on random paths', () => {
    // The rules stated plainly, one UTF-16 unit at a time, on the path as the server sees it.
    const forbidden = (c: number): boolean => (c > 0 && c <= 0x1f) || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xf8ff) || c >= 0xfff0;
    const verdict = (p: string): string | null => {
      if (p.length === 0) return 'path must not be empty';
      if (p[0] !== '/') return 'path must start with /';
      if (p.length === 1) return null;
      if (p.endsWith('/')) return 'path must not end with /';
      for (let i = 1; i < p.length; i++) {
        const c = p.charCodeAt(i);
        const ends = i + 1 === p.length || p[i + 1] === '/';
        if (c === 0) return `null character at index ${i}`;
        if (p[i] === '/' && p[i - 1] === '/') return `empty segment at index ${i}`;
        if (p[i] === '.' && p[i - 1] === '.' && p[i - 2] === '/' && ends) return `relative segment '..' at index ${i - 1}`;
        if (p[i] === '.' && p[i - 1] === '/' && ends) return `relative segment '.' at index ${i}`;
        if (forbidden(c)) return `invalid character \\u${c.toString(16).padStart(4, '0')} at index ${i}`;
      }
      return null;
    };
    const units = ['/', '/', '.', 'a', 'Z', '9', '-', ' ', '\u0000', '\u0001', '\u007f', '\u00e9', '\ud800', '\ufff5', '~'];
    let seed = 11;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 5000; round++) {
      const path = Array.from({ length: next() % 7 }, () => units[next() % units.length]).join('');
      for (const sequential of [false, true]) {
        const why = verdict(sequential ? `${path}1` : path);
        if (why === null) expect(() => validatePath(path, { sequential })).not.toThrow();
        else expect(() => validatePath(path, { sequential })).toThrow(`${why}: ${JSON.stringify(path)}`);
      }
    }
  });
  it('joinPath keeps every non-empty segment of every part, one slash before each, whatever the slashes', () => {
    // The definition: split every part on '/', drop the empty pieces, join what is left under the root.
    const reference = (...parts: string[]): string => `/${parts.flatMap((p) => p.split('/')).filter((s) => s !== '').join('/')}`;
    const pieces = ['', '/', '//', 'a', 'bc', '/a', 'a/', '/a/', 'a//b', '///x/y//', '.', '..', 'é/ü'];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 2000; round++) {
      const parts = Array.from({ length: next() % 4 }, () => Array.from({ length: 1 + (next() % 3) }, () => pieces[next() % pieces.length]).join(''));
      expect(joinPath(...parts)).toBe(reference(...parts));
    }
    expect(joinPath()).toBe('/');
    expect(joinPath('', '/')).toBe('/');
  });
});

describe('connect strings', () => {
  it('parses hosts, IPv6 in brackets, default port and chroot', () => {
    expect(parseConnectString('h1:2181,[::1]:2182,h3/app/x')).toEqual({
      hosts: [
        { host: 'h1', port: 2181 },
        { host: '::1', port: 2182 },
        { host: 'h3', port: 2181 },
      ],
      chroot: '/app/x',
    });
    expect(parseConnectString('10.0.0.1:1/').chroot).toBe('');
  });
  it.each(['', ',', 'h:notaport', 'h:70000', '::1:2181', '[::1', 'h/bad/', 'h/a//b'])('refuses %j', (s) => {
    expect(() => parseConnectString(s)).toThrow(InvalidArgumentError);
  });
});

describe('ACL helpers', () => {
  it('computes the digest like DigestAuthenticationProvider', () => {
    // The example from the ZooKeeper admin guide.
    expect(digestId('super', 'test')).toBe('super:D/InIHSb7yEEbrWz8b9l71RjZJU=');
    expect(Acls.digest('super', 'test', Perms.READ)).toEqual({ perms: 1, id: { scheme: 'digest', id: 'super:D/InIHSb7yEEbrWz8b9l71RjZJU=' } });
  });
  it('validates ACLs', () => {
    expect(() => validateAcl(Acls.openUnsafe())).not.toThrow();
    expect(() => validateAcl([Acls.ip('10.0.0.0/8'), Acls.ip('::1')])).not.toThrow();
    for (const bad of [[], [Acls.ip('10.0.0.0/40')], [Acls.ip('nope')], [{ perms: 1.5, id: { scheme: 'world', id: 'anyone' } }], [{ perms: 1, id: { scheme: 'world', id: 'me' } }]]) {
      expect(() => validateAcl(bad)).toThrow(InvalidArgumentError);
    }
  });
});

describe('chroot', () => {
  it('maps paths both ways and leaves outside paths alone', () => {
    const c = new Chroot('/app');
    expect(c.toServer('/')).toBe('/app');
    expect(c.toServer('/x')).toBe('/app/x');
    expect(c.toClient('/app')).toBe('/');
    expect(c.toClient('/app/x')).toBe('/x');
    expect(c.toClient('/apple')).toBe('/apple');
    expect(c.toClient('/zookeeper/config')).toBe('/zookeeper/config');
  });
});

describe('WatchManager', () => {
  const mk = (name: string, log: string[]): Watcher => ({ fire: (e) => log.push(`${name}:${e.type}`), fail: () => log.push(`${name}:fail`) });

  it('materializes like ZKWatchManager', () => {
    const log: string[] = [];
    const m = new WatchManager();
    m.register('data', '/a', mk('data', log));
    m.register('exist', '/a', mk('exist', log));
    m.register('child', '/a', mk('child', log));
    m.register('persistent', '/a', mk('p', log));
    m.register('persistent-recursive', '/', mk('r', log));
    for (const w of m.materialize('childrenChanged', '/a')) w.fire({ type: 'childrenChanged', serverPath: '/a', zxid: 1n });
    // Recursive watches ignore childrenChanged; the child watch is one-shot.
    expect(log).toEqual(['child:childrenChanged', 'p:childrenChanged']);
    log.length = 0;
    for (const w of m.materialize('deleted', '/a')) w.fire({ type: 'deleted', serverPath: '/a', zxid: 2n });
    expect(log.sort()).toEqual(['data:deleted', 'exist:deleted', 'p:deleted', 'r:deleted']);
    expect(m.snapshot()).toEqual({ data: [], exist: [], child: [], persistent: ['/a'], persistentRecursive: ['/'] });
  });

  it('shares one entry per path and forgets it with the last watcher', () => {
    const m = new WatchManager();
    const a = mk('a', []);
    const b = mk('b', []);
    m.register('persistent', '/x', a);
    m.register('persistent', '/x', b);
    m.register('persistent', '/x', a);
    expect(m.unregister('persistent', '/x', a)).toBe(false);
    expect(m.unregister('persistent', '/x', b)).toBe(true);
    expect(m.size).toBe(0);
  });

  it('keeps a path with one watcher and a path with several alike: holds, order, removal, session end', () => {
    const log: string[] = [];
    const m = new WatchManager();
    const [a, b, c] = [mk('a', log), mk('b', log), mk('c', log)];
    m.register('data', '/x', a);
    expect([m.holds('data', '/x', a), m.holds('data', '/x', b), m.has('data', '/x')]).toEqual([true, false, true]);
    m.register('data', '/x', b);
    m.register('data', '/x', c);
    expect(m.unregister('data', '/x', b)).toBe(false);
    expect(m.unregister('data', '/x', b)).toBe(false);
    // Back to one watcher, then a second again: registration order is the firing order.
    expect(m.unregister('data', '/x', a)).toBe(false);
    m.register('data', '/x', a);
    expect([m.holds('data', '/x', c), m.holds('data', '/x', a), m.holds('data', '/x', b)]).toEqual([true, true, false]);
    for (const w of m.materialize('dataChanged', '/x')) w.fire({ type: 'dataChanged', serverPath: '/x', zxid: 1n });
    expect(log).toEqual(['c:dataChanged', 'a:dataChanged']);
    expect(m.has('data', '/x')).toBe(false);
    m.register('persistent', '/p', a);
    m.register('persistent', '/q', b);
    m.register('persistent', '/q', c);
    expect(m.persistentWatchers().map((e) => `${e.serverPath}`)).toEqual(['/p', '/q', '/q']);
    m.register('exist', '/y', a);
    expect(m.counts()).toMatchObject({ exist: 1, persistent: 2 });
    expect([...m.takeAll({ keepPersistent: true })]).toEqual([a]);
    expect([...m.takeAll()]).toEqual([a, b, c]);
    expect(m.size).toBe(0);
  });

  it('splits SetWatches into batches under the limit, 105 only when persistent watches exist', () => {
    const paths = Array.from({ length: 10 }, (_, i) => `/${'p'.repeat(9)}${i}`);
    const batches = setWatchesBatches({ data: paths, exist: [], child: paths, persistent: [], persistentRecursive: ['/r'] }, 50);
    expect(batches.every((b) => [...b.data, ...b.child, ...b.persistentRecursive].join('').length <= 50)).toBe(true);
    expect(batches.flatMap((b) => b.data)).toEqual(paths);
    expect(batches.filter((b) => b.needsSetWatches2)).toHaveLength(1);
  });
});

describe('hosts, xids and states', () => {
  it('walks hosts round-robin and backs off only after a full cycle', () => {
    const p = new HostProvider([{ host: 'a', port: 1 }, { host: 'b', port: 2 }], false);
    const delays = [p.next(0), p.next(0), p.next(0), p.next(0)].map((n) => n.delay > 0);
    expect(delays).toEqual([false, false, true, false]);
    p.connected();
    expect(p.next(0).delay).toBe(0);
  });
  it('xids start at 1 and wrap to 1', () => {
    const x = new SessionIdentity(undefined);
    expect(x.takeXid()).toBe(1);
    (x as unknown as { nextXid: number }).nextXid = 0x7fffffff;
    expect(x.takeXid()).toBe(0x7fffffff);
    expect(x.takeXid()).toBe(1);
    x.renew();
    expect(x.takeXid()).toBe(2);
  });
  it('terminal states only lead to closed', () => {
    expect(isTerminal('expired')).toBe(true);
    expect(canTransition('expired', 'connected')).toBe(false);
    expect(canTransition('expired', 'closed')).toBe(true);
    expect(canTransition('suspended', 'connected-read-only')).toBe(true);
    expect(canTransition('idle', 'connected')).toBe(false);
  });
});
