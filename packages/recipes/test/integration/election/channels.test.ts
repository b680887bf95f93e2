// The election tracing channel against the real server (zkts:election.term): a LeaderElection's terms (closed,
// lost at session expiry, begun again in the renewed session) and a LeaderSelector's (its callback run in the
// term's context; ended by returning, throwing or close()), the selector's mutex publishing no lock traces.
import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';

import {
  LeaderElection, LeaderSelector, LockLostError, RECIPE_CHANNELS, type ElectionTermTrace, type LockWaitTrace,
} from '@zkts/recipes';

import { at, eventsOf, FAILED, record, SETTLED } from '../../support/channels.js';
import { expireSession, victimClient } from '../../support/expiry.js';
import { until, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

const unbind: (() => void)[] = [];
afterEach(() => {
  for (const u of unbind.splice(0)) u();
});

/** A store bound to the term channel's start: what a subscriber such as OpenTelemetry would make active. */
function termStore(): AsyncLocalStorage<ElectionTermTrace> {
  const als = new AsyncLocalStorage<ElectionTermTrace>();
  const start = tracingChannel<unknown, ElectionTermTrace>(RECIPE_CHANNELS.electionTerm).start;
  start.bindStore(als, (context) => context);
  unbind.push(() => start.unbindStore(als));
  return als;
}

describe('election term channel', () => {
  it('LeaderElection: a term per leadership; close() ends it closed, an expiry lost, and the renewed session leads again', async () => {
    const dir = `${uniqueRoot()}/election`;
    const direct = await clients.connect();
    const victim = await victimClient(clients, proxies);
    const terms = record<ElectionTermTrace>(RECIPE_CHANNELS.electionTerm, (t) => t.path === dir);
    const als = termStore();
    const a = new LeaderElection(direct, dir, { id: 'a' });
    const b = new LeaderElection(victim.client, dir, { id: 'b' });
    const storeAtChange: unknown[] = [];
    b.onChange((leader) => {
      if (leader) storeAtChange.push(als.getStore());
    });
    await a.start();
    await a.awaitLeadership({ timeout: 5000 });
    const nodeA = a.node;
    await b.start();
    const nodeB = b.node;
    await a.close();
    await b.awaitLeadership({ timeout: 5000 });
    const firstSession = victim.client.sessionId;
    await expireSession(victim, { renewed: true });
    await until(() => b.isLeader, 10_000, 'b leading in its renewed session');
    const nodeB2 = b.node;
    await b.close();

    const term = { recipe: 'LeaderElection', path: dir };
    expect(terms.traces.map(eventsOf)).toEqual([SETTLED, FAILED, SETTLED]);
    const [termA, termB, termB2] = terms.traces;
    const heldA = { ...term, node: nodeA, participantId: 'a', sessionId: direct.sessionId };
    expect(at(termA, 'start')).toEqual(heldA);
    expect(at(termA, 'asyncEnd')).toEqual({ ...heldA, reason: 'closed' });
    const heldB = { ...term, node: nodeB, participantId: 'b', sessionId: firstSession };
    expect(at(termB, 'start')).toEqual(heldB);
    const lost = termB!.context.error;
    expect(lost).toBeInstanceOf(LockLostError);
    expect(at(termB, 'asyncEnd')).toEqual({ ...heldB, reason: 'lost', error: lost });
    const heldB2 = { ...term, node: nodeB2, participantId: 'b', sessionId: victim.client.sessionId };
    expect(nodeB2).not.toBe(nodeB);
    expect(at(termB2, 'start')).toEqual(heldB2);
    expect(at(termB2, 'asyncEnd')).toEqual({ ...heldB2, reason: 'closed' });
    // The change listeners heard each new term inside that term's start context.
    expect(storeAtChange).toEqual([termB!.context, termB2!.context]);
  });

  it('LeaderSelector: the callback runs in its term\'s context; returning resigns, throwing resigns with the error, close() closes', async () => {
    const dir = `${uniqueRoot()}/selector`;
    const client = await clients.connect();
    const terms = record<ElectionTermTrace>(RECIPE_CHANNELS.electionTerm, (t) => t.path === dir);
    const waits = record<LockWaitTrace>(RECIPE_CHANNELS.lockWait, (t) => t.path === dir);
    const holds = record<LockWaitTrace>(RECIPE_CHANNELS.lockHold, (t) => t.path === dir);
    const als = termStore();
    const stores: unknown[] = [];
    const failure = new Error('the leader gave up');
    let calls = 0;
    const selector = new LeaderSelector(client, dir, async (signal) => {
      calls++;
      stores.push(als.getStore());
      await client.exists(dir); // still in the term's context after an await
      stores.push(als.getStore());
      if (calls === 2) throw failure;
      // close() may abort the term while this call still awaits exists() above: an abort event is not sent twice.
      if (calls === 3 && !signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    }, { id: 'me', autoRequeue: true, onError: () => undefined });
    selector.start();
    await until(() => calls === 3 && terms.traces.length === 3, 10_000, 'a third term');
    await selector.close();

    expect(terms.traces.map(eventsOf)).toEqual([SETTLED, FAILED, SETTLED]);
    const contexts = terms.traces.map((t) => t.context);
    expect(stores).toEqual([contexts[0], contexts[0], contexts[1], contexts[1], contexts[2], contexts[2]]);
    const base = { recipe: 'LeaderSelector', path: dir, participantId: 'me', sessionId: client.sessionId };
    for (const t of terms.traces) {
      expect(t.context.node?.startsWith(`${dir}/_c_`)).toBe(true);
      expect(at(t, 'start')).toEqual({ ...base, node: t.context.node });
    }
    expect(at(terms.traces[0], 'asyncEnd')).toEqual({ ...base, node: contexts[0]!.node, reason: 'resigned' });
    expect(at(terms.traces[1], 'asyncEnd')).toEqual({ ...base, node: contexts[1]!.node, reason: 'resigned', error: failure });
    expect(at(terms.traces[2], 'asyncEnd')).toEqual({ ...base, node: contexts[2]!.node, reason: 'closed' });
    // The selector's mutex is an implementation detail: its holds are the terms.
    expect(waits.traces).toEqual([]);
    expect(holds.traces).toEqual([]);
  });
});
