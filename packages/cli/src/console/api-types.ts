/**
 * The console's HTTP API as JSON types: the one contract between the Node side (src/console/) and the page
 * (ui/, bundled for the browser). Types only, no runtime code, so the page's bundle imports it for free.
 *
 * Conventions:
 * - Every request carries the console token: `?token=` on the first page load (answered with an HttpOnly,
 *   SameSite=Strict cookie), then the cookie; `Authorization: Token <token>` for scripts.
 * - Reads are GET; writes are POST with a JSON body and the `X-Zkts-Csrf` header set to `Info.csrf`.
 * - 64-bit ids (session ids, zxids) travel as `0x…` hex strings; times as ms since the epoch; node data as base64.
 * - A failure is a non-2xx status with `ApiErrorBody`; `code` is a stable string: the ZooKeeper error code
 *   name (`NO_NODE`, `BAD_VERSION`, `NO_AUTH`, …) when the server refused, else one of `ConsoleErrorCode`.
 */

/** Codes the console itself answers with (ZooKeeper's own codes pass through as their names). */
export type ConsoleErrorCode =
  | 'BAD_TOKEN' // missing or wrong token (401)
  | 'BAD_CSRF' // a write without the CSRF header, or a cross-site origin (403)
  | 'BAD_HOST' // a Host header that is not the console's own address: DNS rebinding (403)
  | 'READ_ONLY' // a write to a console started with --read-only (403)
  | 'BAD_REQUEST' // malformed body or parameters (400)
  | 'NOT_FOUND' // no such API route (404)
  | 'UNAVAILABLE' // the feature was not enabled (no --proxy, no --data-dir) or the server refused a word (409)
  | 'CONFLICT' // a recursive delete whose subtree grew past the count the user confirmed (409)
  | 'TOO_LARGE' // a subtree too large for /api/count or a recursive delete (more than 1,000,000 nodes) (413)
  | 'INTERNAL'; // anything else (500)

export interface ApiErrorBody {
  readonly error: { readonly code: string; readonly message: string };
  /** With BAD_VERSION (409, from set, acl or a versioned delete): the node as it is now, so the page can show what changed meanwhile. */
  readonly current?: NodeInfo;
}

/** GET /api/info */
export interface Info {
  /** The connect string the console's client uses. */
  readonly server: string;
  readonly readOnly: boolean;
  /** Goes in the `X-Zkts-Csrf` header of every POST. */
  readonly csrf: string;
  readonly version: string;
  readonly session: { readonly id: string; readonly timeoutMs: number; readonly state: string };
  /** `--proxy`'s listening address (clients connect there), or null. */
  readonly proxy: string | null;
  /** `--data-dir`, or null. */
  readonly dataDir: string | null;
}

export interface StatInfo {
  readonly czxid: string;
  readonly mzxid: string;
  readonly pzxid: string;
  /** ms since the epoch */
  readonly ctime: number;
  readonly mtime: number;
  readonly version: number;
  readonly cversion: number;
  readonly aversion: number;
  /** `0x0` for a persistent node. */
  readonly ephemeralOwner: string;
  readonly dataLength: number;
  readonly numChildren: number;
}

export interface AclEntry {
  /** `world`, `auth`, `digest`, `ip`, `sasl`, `x509`, … */
  readonly scheme: string;
  readonly id: string;
  /** A subset of `cdrwa`, in that order. */
  readonly perms: string;
}

/** GET /api/node?path=P */
export interface NodeInfo {
  readonly path: string;
  readonly stat: StatInfo;
  /** The whole data, base64 (ZooKeeper caps a node's data at jute.maxbuffer, 1 MiB by default). */
  readonly data: string;
  readonly acl: readonly AclEntry[];
}

/** GET /api/children?path=P&offset=N&limit=N[&prefix=S]: one page of the sorted child names. */
export interface ChildrenPage {
  readonly path: string;
  /** How many children match (all of them without `prefix`). */
  readonly total: number;
  readonly offset: number;
  readonly names: readonly string[];
  /** The parent's cversion when the list was read: a page of another cversion means the list changed. */
  readonly cversion: number;
}

/** GET /api/search?prefix=/a/b: paths under the deepest existing parent whose names start with the rest. */
export interface SearchResult {
  readonly prefix: string;
  readonly paths: readonly string[];
  /** More matched than were returned. */
  readonly truncated: boolean;
}

/** GET /api/count?path=P: how many nodes a recursive delete would remove (the node itself included). */
export interface SubtreeCount {
  readonly path: string;
  readonly count: number;
}

export type CreateModeName =
  | 'persistent'
  | 'ephemeral'
  | 'persistent-sequential'
  | 'ephemeral-sequential'
  | 'container'
  | 'persistent-with-ttl'
  | 'persistent-sequential-with-ttl';

/** POST /api/create → `{ path }` (the created path, with its sequence). */
export interface CreateRequest {
  readonly path: string;
  /** base64 */
  readonly data: string;
  readonly mode: CreateModeName;
  /** ms, for the TTL modes */
  readonly ttl?: number;
  /** Default: world:anyone:cdrwa. */
  readonly acl?: readonly AclEntry[];
}
export interface CreateReply {
  readonly path: string;
}

/** POST /api/set → the new `NodeInfo`; a stale `version` → 409 BAD_VERSION (ZooKeeper's code) with `current`. */
export interface SetDataRequest {
  readonly path: string;
  /** base64 */
  readonly data: string;
  /** The version the user read (-1 to overwrite whatever is there: the page asks first). */
  readonly version: number;
}

/** POST /api/delete → `{ deleted }`. */
export interface DeleteRequest {
  readonly path: string;
  /** Non-recursive: the version read (-1: any). */
  readonly version?: number;
  readonly recursive?: boolean;
  /** Recursive: the count the user confirmed; the console refuses (CONFLICT) when the subtree grew past it. */
  readonly confirmCount?: number;
}
export interface DeleteReply {
  readonly deleted: number;
}

/** POST /api/acl → the new `NodeInfo`; a stale `aversion` → 409 BAD_VERSION with `current`. */
export interface SetAclRequest {
  readonly path: string;
  readonly acl: readonly AclEntry[];
  /** The aversion read. */
  readonly aversion: number;
}

/** A recipe member (holder, waiter, candidate, instance, item…) as the console shows it. */
export interface RecipeMemberInfo {
  /** What it is in the recipe: `holder`, `waiter`, `leader`, `candidate`, `instance`, `item`, `member`, … */
  readonly role: string;
  /** The child's name. */
  readonly name: string;
  readonly path: string;
  /** Its sequence suffix, when it has one. */
  readonly sequence: number | null;
  /** Who it says it is (the node's data or a part of its name, decoded as text). */
  readonly owner: string | null;
  /** The library whose layout this member follows: `curator`, `kazoo`, `zkts`. */
  readonly library: string | null;
  /** The ephemeral owner's session id (`0x…`), or null for a persistent node. */
  readonly session: string | null;
  /** The node's ctime (ms): held/waiting since. */
  readonly since: number | null;
  /** Extra facts in display order (address, port, priority, …). */
  readonly details: readonly (readonly [string, string])[];
}

/** GET /api/recipe?path=P: the recipe a node's layout shows, or `{ kind: null }`. */
export interface RecipeInfo {
  /** `mutex`, `read-write-lock`, `semaphore`, `election`, `queue`, `counter`, `discovery`, `group`,
   *  `partitioner`, `lease`, `barrier`, `double-barrier`; null: no known layout. */
  readonly kind: string | null;
  readonly path: string;
  /** Which libraries' layout it matches. */
  readonly libraries: readonly string[];
  /** A one-line title, e.g. "Curator InterProcessMutex: held, 2 waiting". */
  readonly title: string;
  /** Facts in display order (depth, value, leader, oldest item age…). */
  readonly summary: readonly (readonly [string, string])[];
  /** In queue order: the holder(s) first, then the waiters. */
  readonly members: readonly RecipeMemberInfo[];
}

/** Whether a four-letter word answered: servers answer only the words in their `4lw.commands.whitelist`. */
export interface WordStatus {
  readonly word: string;
  readonly available: boolean;
  /** Why not (not whitelisted, connection refused, …). */
  readonly reason: string | null;
}

export interface ServerSession {
  readonly id: string;
  /** host:port of its connection, when `cons` shows it. */
  readonly address: string | null;
  readonly timeoutMs: number | null;
  readonly ephemerals: readonly string[];
  readonly watches: readonly string[];
  /** Packets received / sent and the last op, as `cons` reports them. */
  readonly received: number | null;
  readonly sent: number | null;
  readonly lastOp: string | null;
}

/** GET /api/sessions */
export interface SessionsInfo {
  readonly words: readonly WordStatus[];
  readonly sessions: readonly ServerSession[];
  /** Paths by watcher count, most first: a path many sessions watch is where a herd starts. */
  readonly hotPaths: readonly { readonly path: string; readonly watchers: number }[];
}

/** GET /api/mntr: the server's `mntr` figures sampled over time (oldest first). */
export interface MntrHistory {
  readonly available: boolean;
  readonly reason: string | null;
  /** Every sample's figures, numbers where `mntr` printed one. */
  readonly samples: readonly { readonly at: number; readonly values: Readonly<Record<string, string | number>> }[];
}

export interface OpSeriesPoint {
  /** Bucket start, ms since the epoch. */
  readonly at: number;
  /** Requests sent in this second. */
  readonly requests: number;
  /** Replies that arrived in this second (a reply counts at its arrival, so a request sent just before a second
   *  ends is answered in the next point). */
  readonly replies: number;
  /** Latency percentiles in ms over this second's replies (null when `replies` is 0). */
  readonly p50: number | null;
  readonly p99: number | null;
}

/** GET /api/traffic: what `--proxy` saw (`zkts proxy --stats`'s report plus per-op series). */
export interface TrafficInfo {
  readonly available: boolean;
  /** The proxy's address, for clients. */
  readonly listen: string | null;
  /** The analysis `zkts proxy --stats --json` prints (StatsReport; the page reads it as `TrafficReport`), or
   *  null before any traffic. */
  readonly report: unknown;
  /** Requests per second and latency per op, one point per second. */
  readonly series: Readonly<Record<string, readonly OpSeriesPoint[]>>;
}

/** Latency of one op over the whole capture, ms (nearest-rank percentiles). */
export interface LatencySummaryInfo {
  readonly count: number;
  readonly min: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

/** One change the proxy saw notified: its herd factor is `fanout`, the sessions it woke. */
export interface TrafficChange {
  readonly zxid: string | null;
  readonly time: number;
  readonly types: readonly string[];
  readonly paths: readonly string[];
  readonly fanout: number;
  readonly notifications: number;
  readonly cause: { readonly op: string; readonly path: string | null; readonly conn: number } | null;
}

/** One session's story through the proxy; an event's `t` is ms from the capture's start (`span.start`). */
export interface TrafficSession {
  readonly session: string;
  readonly timeoutMs?: number | undefined;
  readonly connections: number;
  readonly reconnects: number;
  readonly requests: number;
  readonly pings: number;
  readonly outcome: string;
  readonly events: readonly { readonly t: number; readonly conn: number; readonly what: string }[];
}

/**
 * `TrafficInfo.report` as the page reads it: the parts of `zkts proxy --stats --json`'s report (StatsReport,
 * src/stats/report.ts, which routes/ops.ts checks against this at compile time) the Traffic view shows.
 */
export interface TrafficReport {
  readonly span: { readonly start: number | null; readonly end: number | null; readonly durationMs: number };
  readonly totals: {
    readonly requests: number;
    readonly replies: number;
    readonly events: number;
    readonly errors: number;
    readonly connections: number;
    readonly sessions: number;
  };
  readonly latency: Readonly<Record<string, LatencySummaryInfo>>;
  readonly errors: readonly { readonly err: string; readonly count: number; readonly ops: Readonly<Record<string, number>> }[];
  readonly slowest: readonly {
    readonly conn: number;
    readonly op: string;
    readonly path?: string | undefined;
    readonly time: number;
    readonly latencyMs: number;
    readonly session: string | null;
  }[];
  readonly fanout: {
    readonly changes: number;
    readonly notifications: number;
    readonly max: number;
    readonly mean: number;
    readonly p50: number;
    readonly p99: number;
    readonly droppedChanges: number;
    readonly perChange: readonly TrafficChange[];
  };
  readonly sessions: readonly TrafficSession[];
}

/** One transaction of the log (`zkts txnlog --json`'s fields). */
export interface HistoryTxn {
  readonly zxid: string;
  readonly time: number;
  readonly session: string;
  readonly cxid: number;
  readonly op: string;
  readonly path: string | null;
  readonly paths: readonly string[];
  readonly fields: readonly (readonly [string, string])[];
  /** `expiry` (the server closed an expired session), `reaper` (container/TTL cleanup), or null (a client). */
  readonly by: string | null;
}

/** GET /api/history?path=P&session=S&op=O&limit=N&before=ZXID: newest first. */
export interface HistoryPage {
  readonly available: boolean;
  readonly txns: readonly HistoryTxn[];
  /** Pass as `before` for the next (older) page; null at the start of the log. */
  readonly next: string | null;
}

/**
 * GET /api/events: Server-Sent Events. `event: change` carries `ChangeEvent`s (batched, at most every 100 ms),
 * `event: state` a `StateEvent` when the console's own session changes state (and once on connecting),
 * `event: reset` a `ResetEvent`.
 */
export interface ChangeEvent {
  readonly changes: readonly { readonly type: 'created' | 'deleted' | 'data'; readonly path: string }[];
}
export interface StateEvent {
  readonly state: string;
  /** false: the server refused the console's watch (ZooKeeper before 3.6 has no addWatch): no live updates. */
  readonly live?: boolean;
}
/** `event: reset`: changes may have been missed (a reconnect, a page too slow to follow): read again what is shown. */
export interface ResetEvent {
  readonly reason: string;
}
