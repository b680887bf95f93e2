/**
 * How the cache's reads go out (engine.ts decides which): every read belongs to a notification's chain or to a
 * full read (a walk), and this module keeps the books of both.
 *
 * - A chain is open while any of its reads is on the wire; its bound (order.ts) holds back later events until then.
 * - Chain reads of one kind and path go one at a time: a notification that comes meanwhile queues its chain for
 *   one more read after the one on the wire (which may predate its change), so a burst of changes to one node
 *   costs two reads, not one each.
 * - A walk keeps at most `window` requests in flight; the rest wait in its backlog.
 * - Outcomes are handled in sending order (sequencer.ts), then `settled` tells the engine.
 */
import type { ResyncReason } from '../types.js';
import { Bounds } from './order.js';
import { Sequencer } from './sequencer.js';

/** Reads made for one notification: open while any is on the wire; `token` is its bound in `Bounds`. */
export interface Chain {
  token: number;
  bound: bigint;
  refs: number;
}

export type WalkReason = 'initial' | ResyncReason;

export interface Walk {
  /** 1 for the first full read, +1 for each one after. */
  id: number;
  reason: WalkReason;
  /** Requests sent or waiting for the window, not yet handled. */
  pending: number;
  inFlight: number;
  /** Requests waiting for the window, taken from `next` on (no Array#shift: a backlog can hold a whole tree). */
  backlog: (() => void)[];
  next: number;
  /** A read was lost with the connection: this walk can no longer vouch for the view. */
  failed: boolean;
  superseded: boolean;
}

export interface Ctx {
  chain: Chain | null;
  walk: Walk | null;
  /** After reading a node, read its children too (a full read; a node discovered in one-shot mode). */
  descend: boolean;
}

export interface SchedulerHost {
  window: number;
  closed(): boolean;
  /** A read failed (default handling; a send may pass its own). */
  failed(error: unknown, ctx: Ctx, path: string): void;
  /** One read of `ctx` was handled (its walk may be done; events may be released). */
  settled(ctx: Ctx): void;
  /** The queued chains of `key` ('d' or 'c' + path) need one more read: send it for `ctx`. */
  reissue(key: string, ctx: Ctx): void;
}

const noop = (): void => undefined;

export class Scheduler {
  readonly bounds = new Bounds();
  readonly seq: Sequencer;
  private readonly host: SchedulerHost;
  /** Chain reads on the wire, by kind + path; the value holds the chains of notifications that came meanwhile. */
  private readonly inFlight = new Map<string, { chain: Chain; descend: boolean }[] | null>();

  constructor(host: SchedulerHost, onFault: (error: unknown) => void) {
    this.host = host;
    this.seq = new Sequencer(onFault);
  }

  openChain(bound: bigint): Chain {
    return { token: this.bounds.add(bound), bound, refs: 1 };
  }

  unref(chain: Chain): void {
    if (--chain.refs === 0) this.bounds.close(chain.token);
  }

  /** Sends one read for `ctx` (a chain read of kind + path `key` one at a time, see the header). */
  send<R>(
    ctx: Ctx,
    path: string,
    read: () => Promise<R>,
    onResult: (result: R, seq: number) => void,
    options: { key?: string | undefined; settled?: () => void; onError?: (error: unknown) => void } = {},
  ): void {
    const { chain, walk } = ctx;
    const { key, settled } = options;
    const onError = options.onError ?? ((error: unknown) => this.host.failed(error, ctx, path));
    if (chain !== null) chain.refs++;
    const go = (): void => {
      if (walk !== null) {
        if (walk.superseded) return;
        walk.inFlight++;
      }
      const after = (): void => {
        settled?.();
        if (key !== undefined) this.nextInLine(key);
        if (chain !== null) this.unref(chain);
        if (walk !== null) {
          walk.inFlight--;
          walk.pending--;
        }
        this.host.settled(ctx);
      };
      this.seq.run(
        read,
        (result, seq) => {
          if (!this.host.closed()) onResult(result, seq);
          after();
        },
        (error) => {
          if (!this.host.closed()) onError(error);
          after();
        },
      );
    };
    if (walk !== null) {
      walk.pending++;
      if (walk.inFlight >= this.host.window) {
        walk.backlog.push(go);
        return;
      }
    }
    go();
  }

  /** Sends now, or queues the chain behind the read of `key` already on the wire. Walk reads never wait. */
  coalesce(key: string, ctx: Ctx, sendIt: (ctx: Ctx, key: string | undefined) => void): void {
    const chain = ctx.chain;
    if (chain === null || ctx.walk !== null) {
      sendIt(ctx, undefined);
      return;
    }
    if (!this.inFlight.has(key)) {
      this.inFlight.set(key, null);
      sendIt(ctx, key);
      return;
    }
    chain.refs++;
    let queued = this.inFlight.get(key);
    if (queued === null || queued === undefined) this.inFlight.set(key, (queued = []));
    queued.push({ chain, descend: ctx.descend });
  }

  /** The chain read `key` is done: one more read for the notifications that came meanwhile, if any. */
  private nextInLine(key: string): void {
    const queued = this.inFlight.get(key);
    this.inFlight.delete(key);
    if (queued === null || queued === undefined || this.host.closed()) {
      if (queued) for (const q of queued) this.unref(q.chain);
      return;
    }
    let bound = (queued[0] as { chain: Chain }).chain.bound;
    let descend = false;
    for (const q of queued) {
      if (q.chain.bound < bound) bound = q.chain.bound;
      descend ||= q.descend;
    }
    const chain = this.openChain(bound);
    for (const q of queued) this.unref(q.chain);
    this.host.reissue(key, { chain, walk: null, descend });
    this.unref(chain);
  }

  /** Sends what waited for the window. */
  drain(walk: Walk): void {
    while (walk.inFlight < this.host.window && walk.next < walk.backlog.length) {
      const go = walk.backlog[walk.next] as () => void;
      walk.backlog[walk.next++] = noop;
      go();
    }
    if (walk.next > 0 && walk.next === walk.backlog.length) {
      walk.backlog = [];
      walk.next = 0;
    }
  }

  /** A walk superseded by a newer one: what it has not sent yet never goes out. */
  abandon(walk: Walk): void {
    walk.superseded = true;
    walk.pending -= walk.backlog.length - walk.next;
    walk.backlog = [];
    walk.next = 0;
  }
}
