/**
 * OpContext: what every client operation (operations.ts) is handed: the chroot and limits, the session's
 * watches, and the two ways to send a request, `call` (a write: never repeated by itself) and `read` (safe to
 * repeat: retried under a retry policy). Every request the API sends starts in `call`: counted there for
 * stats(), and traced on zkts:request when someone subscribes (request-trace.ts); each try of a retried read is
 * its own request.
 */
import { openAclFor, type AclFor } from './acl-provider.js';
import type { Chroot } from './chroot.js';
import type { Clock } from './clock.js';
import { requestChannel } from './diagnostics.js';
import type { Dispatcher } from './dispatcher.js';
import { Call, type CallEnv, type Canceller, type RequestSpec } from './request.js';
import { TracedRequest, attemptIn } from './request-trace.js';
import { retrying, type RetryPolicy } from './retry.js';
import type { Session } from './session/session.js';
import { RequestStats } from './stats.js';
import type { CallOptions } from './types.js';
import { checkTimeout } from './validation.js';
import type { WatchRequestContext } from './watches/watch-requests.js';
import type { ClientWatches } from './watches/watches.js';

/** What OpContext is made of besides the session (the client's resolved options). */
export interface OpContextOptions {
  readonly root: Chroot;
  readonly maxPacket: number;
  /** ms; 0: no limit. */
  readonly requestTimeout: number;
  readonly retry: RetryPolicy | undefined;
  readonly clock: Clock;
  readonly dispatcher: Dispatcher;
  /** The ACL of a create that names none (the client's aclProvider). */
  readonly aclFor: AclFor;
  /** A namespace view's: the work to do before its first request (creating the namespace node), null once done. */
  readonly prepare?: () => Promise<void> | null;
  /** A namespace view counts into its client's stats. */
  readonly stats?: RequestStats;
}

/** What every operation is handed: the chroot and limits, the session's watches, and the two ways to send a request. */
/** Also each Call's environment (CallEnv) itself: no second record per client for it. */
export class OpContext implements WatchRequestContext, CallEnv {
  readonly root: Chroot;
  readonly maxPacket: number;
  readonly watches: ClientWatches;
  readonly aclFor: AclFor;
  /** Requests and failures counted for stats(). */
  readonly stats: RequestStats;
  private readonly session: Session;
  private readonly requestTimeout: number;
  private readonly retryPolicy: RetryPolicy | undefined;
  readonly clock: Clock;
  readonly dispatcher: Dispatcher;
  /** The session: a Call cancelled by its caller is taken out of its queue. */
  readonly canceller: Canceller;
  private readonly prepare: (() => Promise<void> | null) | undefined;

  constructor(session: Session, options: OpContextOptions) {
    this.session = session;
    this.canceller = session;
    this.watches = session.watches;
    this.root = options.root;
    this.maxPacket = options.maxPacket;
    this.requestTimeout = options.requestTimeout;
    this.retryPolicy = options.retry;
    this.clock = options.clock;
    this.aclFor = options.aclFor;
    this.dispatcher = options.dispatcher;
    this.prepare = options.prepare;
    this.stats = options.stats ?? new RequestStats();
  }

  /** The same session, limits and stats under another chroot (a namespace view), with the work its requests wait for. */
  under(root: Chroot, prepare: () => Promise<void> | null): OpContext {
    const { maxPacket, requestTimeout, retryPolicy: retry, clock, dispatcher, stats } = this;
    // The ACL provider sees the path as the client made with it writes it (Curator's provider sees namespaced
    // paths): a view's path gets the view's place under the client in front.
    const prefix = root.root.slice(this.root.root.length);
    const parentAcl = this.aclFor;
    // Without a provider the ACL is the same whatever the path: the view keeps the shared resolver (a create can
    // then use the shared list, operations.ts).
    const aclFor: AclFor = parentAcl === openAclFor ? openAclFor : (path) => parentAcl(path === '/' ? prefix : `${prefix}${path}`);
    return new OpContext(this.session, { root, maxPacket, requestTimeout, retry, clock, dispatcher, prepare, stats, aclFor });
  }

  get sessionOver(): boolean {
    return this.session.isOver;
  }

  /**
   * A request that must not be repeated by itself (a write): one Call, handed to the session. `attempt` > 1:
   * the client's own retry sent it again (else the options may say so: idempotent.ts).
   */
  call<T>(spec: RequestSpec<T>, options: CallOptions | undefined, attempt = 1): Promise<T> {
    const pending = this.prepare?.() ?? null;
    return pending === null ? this.send(spec, options, attempt) : pending.then(() => this.send(spec, options, attempt));
  }

  private send<T>(spec: RequestSpec<T>, options: CallOptions | undefined, attempt: number): Promise<T> {
    const timeout = options?.timeout;
    checkTimeout(timeout);
    const limit = timeout ?? this.requestTimeout;
    const signal = options?.signal;
    const cancel = signal === undefined && limit <= 0 ? undefined : { signal, timeout: limit };
    this.stats.request(spec.op);
    if (requestChannel.hasSubscribers) return this.traced(spec, cancel, Math.max(attempt, attemptIn(options)));
    const call = new Call(spec, this, cancel);
    if (call.phase === 'queued') this.session.submit(call);
    return call.promise;
  }

  /** call() with a zkts:request trace: made, submitted inside its `start`, ended (request-trace.ts). */
  private traced<T>(spec: RequestSpec<T>, cancel: { signal: AbortSignal | undefined; timeout: number } | undefined, attempt: number): Promise<T> {
    const trace = new TracedRequest(spec.op, spec.path, spec.ops, this.session.sessionId, attempt);
    return trace.run(() => {
      const call = new Call(spec, this, cancel, trace);
      if (call.phase === 'queued') this.session.submit(call);
      return call.promise;
    });
  }

  /** A request that is safe to repeat: retried under the call's or the client's retry policy, if any. */
  read<T>(spec: RequestSpec<T>, options: CallOptions | undefined): Promise<T> {
    const policy = options?.retry ?? this.retryPolicy;
    if (policy === undefined) return this.call(spec, options);
    return retrying((attempt) => this.call(spec, options, attempt), policy, this.clock, options?.signal);
  }
}
