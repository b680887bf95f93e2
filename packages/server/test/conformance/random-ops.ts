// A seeded random workload for the differential run: several sessions issue creates of every mode, deletes
// and setData with right, wrong and any versions, multis (some failing), ACL changes, digest auth, one-shot,
// persistent and recursive watches, multiReads, close and reopen their sessions, and one session expires —
// over a small namespace so that operations collide. The choices depend only on the seed, so both servers
// receive the same requests.
import type { ACL, MultiOp } from '@zkts/protocol/codec';
import type { Scenario } from './harness.js';
import { acl, addWatch, auth, create, createTTL, del, EVENT, get, OP, OPEN, set, setAcl, setWatches, watchReq } from './ops.js';

/** mulberry32: a small, fast, seedable PRNG. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const USER_DIGEST = 'user:o4ik3oBOK6T+Kdr6nOMyfd7dSuI=';

export function randomWorkload(seed: number, ops: number, sessionCount = 4): Scenario {
  return async (c) => {
    const r = rng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
    const names = Array.from({ length: sessionCount }, (_, i) => `s${i + 1}`);
    const generation = new Map<string, number>();
    const open = async (n: string): Promise<void> => {
      const g = (generation.get(n) ?? 0) + 1;
      generation.set(n, g);
      await c.open(`${n}.${g}`, { timeout: 10_000 });
    };
    const cur = (n: string): string => `${n}.${generation.get(n) ?? 1}`;
    for (const n of names) await open(n);
    await c.call(cur('s1'), OP.create, create(c.root));
    const segs = ['a', 'b', 'c'];
    const randomPath = (): string => {
      const depth = 1 + Math.floor(r() * 3);
      let p = c.root;
      for (let i = 0; i < depth; i++) p += `/${pick(segs)}`;
      return p;
    };
    const acls: ACL[][] = [OPEN, OPEN, OPEN, acl(1, 'world', 'anyone'), acl(31, 'digest', USER_DIGEST), acl(31, 'ip', '127.0.0.1'), acl(15, 'world', 'anyone')];
    const version = (): number => pick([-1, -1, 0, 0, 1, 2, 5]);
    const data = (): string => pick(['', 'x', 'hello', 'a longer value']);
    const createOp = (p: string): MultiOp => {
      const flags = pick([0, 0, 0, 1, 2, 3, 4]);
      return flags === 4 ? { op: 'createContainer', ...create(p, data(), 4) } : { op: pick(['create', 'create2'] as const), ...create(p, data(), flags) };
    };
    // A zxid seen a while ago, for setWatches replays (each server's own, so the replay point is the same).
    let mark = 0n;
    let lastSeen = 0n;
    for (let i = 0; i < ops; i++) {
      if (i % 40 === 0) mark = lastSeen;
      if (i === Math.floor(ops / 2)) {
        // One expiry per run: a short-lived session leaves ephemerals and goes silent; its ephemerals go when
        // the server expires it, and the others' watches see that. The run goes on once s1's watch has seen
        // the expiry (one transaction deletes them all), however long a loaded machine makes it take.
        await c.open('doomed', { timeout: 1000 });
        for (const seg of segs) await c.call('doomed', OP.create, create(`${c.root}/${seg}/doomed`, '', 1));
        // The root always exists, so this one is always created and marks the expiry.
        const last = await c.call('doomed', OP.create, create(`${c.root}/doomed-`, '', 3));
        const marker = last.kind === 'reply' ? (last.body as { path?: string } | null)?.path : undefined;
        if (marker === undefined) throw new Error('the doomed session could not create its marker');
        const witness = cur('s1');
        await c.call(witness, OP.exists, get(marker, true));
        c.drop('doomed');
        await c.awaitEvent(witness, EVENT.NodeDeleted, marker);
      }
      const who = pick(names);
      const s = cur(who);
      const p = randomPath();
      const roll = r();
      if (roll < 0.2) {
        const flags = pick([0, 0, 1, 2, 3, 4, 5, 6]);
        if (flags >= 5) await c.call(s, OP.createTTL, createTTL(p, 3_600_000n, flags, data()));
        else await c.call(s, pick([OP.create, OP.create2]), create(p, data(), flags, r() < 0.15 ? pick(acls) : OPEN));
      } else if (roll < 0.3) {
        await c.call(s, OP.delete, del(p, version()));
      } else if (roll < 0.4) {
        await c.call(s, OP.setData, set(p, data(), version()));
      } else if (roll < 0.5) {
        await c.call(s, pick([OP.getData, OP.exists, OP.getChildren, OP.getChildren2]), get(p, r() < 0.5));
      } else if (roll < 0.58) {
        const n = 1 + Math.floor(r() * 4);
        const sub: MultiOp[] = [];
        for (let k = 0; k < n; k++) {
          const q = randomPath();
          const kind = r();
          if (kind < 0.4) sub.push(createOp(q));
          else if (kind < 0.6) sub.push({ op: 'delete', ...del(q, version()) });
          else if (kind < 0.8) sub.push({ op: 'setData', ...set(q, data(), version()) });
          else sub.push({ op: 'check', path: q, version: version() });
        }
        await c.call(s, OP.multi, sub);
      } else if (roll < 0.63) {
        await c.call(s, OP.setACL, setAcl(p, pick(acls), version()));
      } else if (roll < 0.66) {
        await c.call(s, OP.getACL, { path: p });
      } else if (roll < 0.7) {
        await c.call(s, OP.addWatch, addWatch(pick([p, c.root]), pick([0, 1])));
      } else if (roll < 0.73) {
        await c.call(s, pick([OP.checkWatches, OP.removeWatches]), watchReq(p, pick([1, 2, 3])));
      } else if (roll < 0.76) {
        await c.call(s, OP.multiRead, [
          { op: 'getData', path: p, watch: false },
          { op: 'getChildren', path: randomPath(), watch: false },
        ]);
      } else if (roll < 0.78) {
        await c.call(s, OP.auth, auth('digest', 'user:pw'));
      } else if (roll < 0.8) {
        if (r() < 0.5) await c.call(s, OP.getEphemerals, { prefixPath: pick([c.root, '/', `${c.root}/a`]) });
        else await c.call(s, OP.getAllChildrenNumber, { path: pick([c.root, p]) });
      } else if (roll < 0.82) {
        await c.call(s, OP.closeSession, null);
        await c.awaitClose(s);
        await open(who);
      } else if (roll < 0.84) {
        await c.call(s, OP.whoAmI, null);
      } else if (roll < 0.87) {
        const list = (): string[] => Array.from({ length: Math.floor(r() * 3) }, randomPath);
        if (r() < 0.5) await c.call(s, OP.setWatches, setWatches(mark, list(), list(), list()));
        else await c.call(s, OP.setWatches2, { ...setWatches(mark, list(), list(), list()), persistentWatches: list(), persistentRecursiveWatches: list() });
      } else {
        await c.call(s, OP.create, create(p, data(), pick([0, 1])));
      }
      const frames = c.session(cur(who)).frames;
      for (let k = frames.length - 1; k >= 0; k--) {
        const f = frames[k];
        if (f?.kind === 'reply' && f.zxid > 0n) {
          lastSeen = f.zxid;
          break;
        }
      }
    }
  };
}
