// LeaderSelector beside kazoo's Election, each in its own process on one server and one path. kazoo's Election
// is a kazoo Lock with the identifier as data, and kazoo's Lock counts only `__lock__`/`__rlock__` children:
// so only `layout: 'kazoo'` (`<uuidhex>__lock__<seq>`) shares an election with it; the default (Curator's
// `_c_<uuid>-lock-<seq>`) is invisible to kazoo, and the negative control shows both sides leading at once.
//
// Every term reports the interval it led on CLOCK_MONOTONIC (overlaps.ts), through each side's own API: zkts from
// the callback's start to its hold's end or its signal firing, kazoo from the leader function's start
// to its return. A kazoo leader killed with -9 led until its process was seen gone; a zkts leader whose session is
// closed led until its signal fired (the client tells its listeners before it asks the server to close the
// session: client-close-order.test.ts).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { ZkClient } from '@zkts/protocol';
import { LeaderSelector, type SelectorLayout } from '@zkts/recipes';

import { checkKazoo, kazooScript, killAll, type ForeignProcess } from '../../support/foreign.js';
import { Clients, sharedServer, sleep, uniqueRoot, until } from '../../support/helpers.js';
import { checkOverlaps, parseHeld, type Held } from '../../support/overlaps.js';

const clients = new Clients();
const HOLD_MS = 300;

beforeAll(() => checkKazoo());

afterEach(async () => {
  killAll();
  await clients.closeAll();
});

/** A zkts participant: a selector on its own session; `terms` are its finished terms, `open` a running one. */
interface ZktsSide {
  readonly who: string;
  readonly client: ZkClient;
  readonly selector: LeaderSelector;
  readonly terms: Held[];
  open: bigint | undefined;
  begun: number;
}

async function zktsSide(who: string, dir: string, layout: SelectorLayout): Promise<ZktsSide> {
  const client = await clients.connect();
  const side: Partial<ZktsSide> & { terms: Held[]; begun: number; open: bigint | undefined } = { who, client, terms: [], begun: 0, open: undefined };
  const selector = new LeaderSelector(client, dir, async (signal) => {
    const start = process.hrtime.bigint();
    side.open = start;
    side.begun++;
    // Lead for HOLD_MS or until the signal fires, whichever is first. The term ends there: when the signal
    // fires this leader has been told to stop, and the client may already be sending closeSession, whose reply
    // can make the other side leader before this continuation gets the CPU back on a loaded machine.
    let end = 0n;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        end = process.hrtime.bigint();
        resolve();
      }, HOLD_MS);
      signal.addEventListener('abort', () => {
        end = process.hrtime.bigint();
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
    side.terms.push({ kind: 'write', who, start, end });
    side.open = undefined;
  }, { id: who, layout, autoRequeue: true });
  selector.start();
  return Object.assign(side, { selector }) as ZktsSide;
}

/** A kazoo participant: kazoo_election.py in its own Python process; killed terms are closed by the test. */
interface KazooSide {
  readonly who: string;
  readonly proc: ForeignProcess;
  /** Terms cut by kill -9: begun, never reported as ended. */
  readonly killed: Held[];
}

function kazooSide(who: string, dir: string): KazooSide {
  return { who, proc: kazooScript('kazoo_election.py', sharedServer(), dir, who, '1000', String(HOLD_MS)), killed: [] };
}

/** The starts of the terms a kazoo process began, and which of them it reported as ended. */
function kazooTerms(k: KazooSide): { begun: bigint[]; ended: Held[] } {
  const begun = [...k.proc.output().matchAll(/^begin (\S+) (\d+)$/gm)].map((m) => BigInt(m[2]!));
  return { begun, ended: parseHeld(k.proc.output()) };
}

function openKazooTerm(k: KazooSide): bigint | undefined {
  const { begun, ended } = kazooTerms(k);
  const last = begun.at(-1);
  return last !== undefined && !ended.some((h) => h.start === last) && !k.killed.some((h) => h.start === last) ? last : undefined;
}

interface Run {
  held: Held[];
  kazooKills: number;
  zktsCloses: number;
}

/**
 * One zkts selector and one kazoo Election contend on `dir` until `terms` terms have begun. With `kills`, each new
 * term whose leader is on the side whose turn it is ends by force: kill -9 of the kazoo process, or closing the
 * zkts session; a new participant replaces it. Stops early once `stopOnOverlap` and an overlap was seen.
 */
async function contend(dir: string, layout: SelectorLayout, terms: number, kills: boolean, stopOnOverlap = false): Promise<Run> {
  let serial = 0;
  let zkts = await zktsSide(`zkts-${serial}`, dir, layout);
  let kazoo = kazooSide(`kazoo-${serial}`, dir);
  const retired: { z: ZktsSide[]; k: KazooSide[] } = { z: [], k: [] };
  const all = (): Held[] => [
    ...[...retired.z, zkts].flatMap((z) => z.terms),
    ...[...retired.k, kazoo].flatMap((k) => [...kazooTerms(k).ended, ...k.killed]),
  ];
  const begun = (): number => [...retired.z, zkts].reduce((n, z) => n + z.begun, 0) + [...retired.k, kazoo].reduce((n, k) => n + kazooTerms(k).begun.length, 0);
  let next: 'kazoo' | 'zkts' = 'kazoo';
  let seen = 0;
  let kazooKills = 0;
  let zktsCloses = 0;
  const deadline = Date.now() + 150_000;
  while (begun() < terms) {
    if (Date.now() > deadline) throw new Error(`only ${begun()} of ${terms} terms began`);
    if (stopOnOverlap && checkOverlaps(all()).overlaps > 0) break;
    if (begun() === seen) {
      await sleep(10);
      continue;
    }
    seen = begun();
    if (!kills) continue;
    const kazooOpen = openKazooTerm(kazoo);
    if (next === 'kazoo' && kazooOpen !== undefined) {
      kazoo.proc.proc.kill('SIGKILL');
      await kazoo.proc.exited;
      kazoo.killed.push({ kind: 'write', who: kazoo.who, start: kazooOpen, end: process.hrtime.bigint() });
      retired.k.push(kazoo);
      kazoo = kazooSide(`kazoo-${++serial}`, dir);
      kazooKills++;
      next = 'zkts';
    } else if (next === 'zkts' && zkts.open !== undefined) {
      await zkts.client.close();
      await until(() => zkts.open === undefined, 10_000, `${zkts.who}'s callback to return`);
      await zkts.selector.close();
      retired.z.push(zkts);
      zkts = await zktsSide(`zkts-${++serial}`, dir, layout);
      zktsCloses++;
      next = 'kazoo';
    }
  }
  // End the terms running now so their intervals are in the check, and stop both sides from starting new ones
  // (both re-enter at once, so a moment when neither leads may never come): the zkts selector closes (its
  // signal fires, the callback returns), the kazoo process is killed and its open term ends with it.
  await zkts.selector.close();
  const stdout = kazoo.proc.proc.stdout;
  const drained = stdout === null || stdout.closed ? Promise.resolve() : new Promise<void>((resolve) => stdout.once('close', () => resolve()));
  kazoo.proc.proc.kill('SIGKILL');
  await Promise.all([kazoo.proc.exited, drained]); // every term it began is read before the open one is taken
  const cut = openKazooTerm(kazoo);
  if (cut !== undefined) kazoo.killed.push({ kind: 'write', who: kazoo.who, start: cut, end: process.hrtime.bigint() });
  return { held: all(), kazooKills, zktsCloses };
}

function report(what: string, run: Run): ReturnType<typeof checkOverlaps> {
  const r = checkOverlaps(run.held);
  const by = (prefix: string): number => run.held.filter((h) => h.who.startsWith(prefix)).length;
  console.info(`${what}: ${r.grants} terms (zkts ${by('zkts')}, kazoo ${by('kazoo')}), ${run.kazooKills} kazoo kills, ${run.zktsCloses} zkts closes, ${r.overlaps} overlaps`);
  return r;
}

describe("LeaderSelector beside kazoo's Election", () => {
  it("layout 'kazoo': never two leaders across 20 terms, killing kazoo leaders and closing zkts sessions in turn", async () => {
    const run = await contend(`${uniqueRoot()}/election`, 'kazoo', 20, true);
    const r = report('layout kazoo', run);
    expect(r.overlaps, r.examples.join('\n')).toBe(0);
    expect(r.grants).toBeGreaterThanOrEqual(20);
    // Both sides led and both kinds of forced end happened.
    expect(run.held.filter((h) => h.who.startsWith('zkts')).length).toBeGreaterThanOrEqual(3);
    expect(run.held.filter((h) => h.who.startsWith('kazoo')).length).toBeGreaterThanOrEqual(3);
    expect(run.kazooKills).toBeGreaterThanOrEqual(3);
    expect(run.zktsCloses).toBeGreaterThanOrEqual(3);
  }, 240_000);

  it("negative control: the default layout (Curator's) is invisible to kazoo, and the check sees two leaders", async () => {
    const run = await contend(`${uniqueRoot()}/election`, 'curator', 40, false, true);
    const r = report('layout curator (control)', run);
    expect(r.overlaps).toBeGreaterThan(0);
  }, 120_000);
});
