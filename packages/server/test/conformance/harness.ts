// The conformance harness: a scenario drives named wire-level sessions against one server and everything the
// server answers becomes a list of observations — replies with their codes and bodies, watch events in the
// order each session received them, handshakes, closes — with zxids made relative to the scenario's start,
// times reduced to whether they are set, and session ids replaced by the scenario's names for them. Running
// the same scenario against ZooKeeper and against startServer must give deep-equal lists.
import { KeeperCode, opName, serverCodeName, type RequestBody, type RequestOpCode } from '@zkts/protocol/codec';
import { RawSession, type HandshakeOptions, type Incoming } from './raw-session.js';

export type Observation = unknown[];

export interface ScenarioContext {
  /** A unique root for this scenario ('/c<N>'), not yet created. */
  readonly root: string;
  /** Opens session `name` (recording its handshake); undefined when refused. */
  open(name: string, options?: HandshakeOptions & { reattach?: string }): Promise<RawSession | undefined>;
  /** Sends a request on `name` and records every frame up to its reply. */
  call<O extends RequestOpCode>(name: string, op: O, body: RequestBody<O>): Promise<Incoming>;
  /** Sends a hand-built frame and records what comes back up to `xid`'s reply or the close. */
  raw(name: string, payload: Uint8Array, expect?: { xid: number; op: number }): Promise<void>;
  /** Records a note (a value computed by the scenario). */
  note(...values: unknown[]): void;
  /** Waits for the server to close `name`'s connection and records it. */
  awaitClose(name: string, ms?: number): Promise<void>;
  /**
   * Waits until session `name` has received a watch event of `type` for `path` after its latest recorded
   * frame (work a server does on its own timer, such as an expiry or a reaping, has then happened); the event
   * is recorded with the session's next frames, as any other.
   */
  awaitEvent(name: string, type: number, path: string, ms?: number): Promise<void>;
  /** Drops `name`'s connection from the client side (no closeSession). */
  drop(name: string): void;
  session(name: string): RawSession;
  sleep(ms: number): Promise<void>;
}

export type Scenario = (ctx: ScenarioContext) => Promise<void>;

const ZXID_KEYS = new Set(['czxid', 'mzxid', 'pzxid', 'zxid']);
const TIME_KEYS = new Set(['ctime', 'mtime']);

class Normalizer {
  base: bigint | undefined;
  readonly names = new Map<bigint, string>();

  zxid(z: bigint): unknown {
    if (z === 0n || z === -1n || this.base === undefined) return Number(z);
    return z < this.base ? 'old' : Number(z - this.base);
  }

  owner(o: bigint): unknown {
    if (o === 0n) return 0;
    const name = this.names.get(o);
    if (name !== undefined) return name;
    return `0x${BigInt.asUintN(64, o).toString(16)}`;
  }

  value(v: unknown, key = ''): unknown {
    if (typeof v === 'bigint') {
      if (ZXID_KEYS.has(key)) return this.zxid(v);
      if (TIME_KEYS.has(key)) return v === 0n ? 0 : 'T';
      if (key === 'ephemeralOwner' || key === 'sessionId') return this.owner(v);
      return v.toString();
    }
    if (v instanceof Uint8Array) return key === 'passwd' ? `${v.byteLength} bytes` : Buffer.from(v).toString('latin1');
    if (Array.isArray(v)) return v.map((e) => this.value(e));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, e] of Object.entries(v)) out[k] = this.value(e, k);
      return out;
    }
    return v;
  }
}

function codeName(err: number): string {
  return err === 0 ? 'OK' : serverCodeName(err) === 'SERVER_ERROR' ? `code ${err}` : serverCodeName(err);
}

/** Runs `scenario` against the server at `connectString`; resolves with its observations. */
export async function observe(connectString: string, root: string, scenario: Scenario): Promise<Observation> {
  const log: Observation = [];
  const norm = new Normalizer();
  const sessions = new Map<string, RawSession>();
  const cursors = new Map<string, number>();
  const session = (name: string): RawSession => {
    const s = sessions.get(name);
    if (s === undefined) throw new Error(`no session ${name}`);
    return s;
  };
  /** Logs `name`'s frames from its cursor up to and including frame `upto`. */
  const drain = (name: string, upto: number): void => {
    const s = session(name);
    let i = cursors.get(name) ?? 0;
    for (; i <= upto && i < s.frames.length; i++) {
      const f = s.frames[i] as Incoming;
      if (f.kind === 'event') log.push([name, 'event', f.event.type, f.event.state, f.event.path]);
      else if (f.kind === 'closed') log.push([name, 'closed']);
      else log.push([name, opName(f.op), codeName(f.err), norm.zxid(f.zxid), norm.value(f.body)]);
    }
    cursors.set(name, i);
  };
  const ctx: ScenarioContext = {
    root,
    async open(name, options = {}) {
      const opts: HandshakeOptions = { ...options };
      if (options.reattach !== undefined) {
        const prev = session(options.reattach).response;
        if (prev !== undefined) {
          opts.sessionId ??= prev.sessionId;
          opts.passwd ??= prev.passwd ?? new Uint8Array(16);
        }
      }
      const { session: s, handshake } = await RawSession.open(connectString, opts);
      sessions.set(name, s);
      cursors.set(name, 0);
      if (handshake.kind === 'refused') {
        log.push([name, 'handshake', 'refused']);
        return undefined;
      }
      const r = handshake.response;
      if (r.sessionId !== 0n && !norm.names.has(r.sessionId)) norm.names.set(r.sessionId, options.reattach ?? name);
      log.push([name, 'handshake', r.protocolVersion, r.timeOut, norm.owner(r.sessionId), r.passwd?.byteLength ?? null, r.readOnly ?? 'absent']);
      if (norm.base === undefined) {
        // The first session's createSession zxid is the scenario's zxid 0.
        const ping = await s.call(11, null);
        if (ping.kind === 'reply') norm.base = ping.zxid;
        cursors.set(name, s.frames.length);
      }
      return s;
    },
    async call(name, op, body) {
      const s = session(name);
      const reply = await s.call(op, body);
      drain(name, s.frames.indexOf(reply));
      return reply;
    },
    async raw(name, payload, expect) {
      const s = session(name);
      const start = s.sendFrame(payload, expect);
      if (expect === undefined) {
        await s.awaitClose();
      } else {
        await s.awaitReply(start, expect.xid);
      }
      drain(name, s.frames.length - 1);
    },
    note(...values) {
      log.push(['note', ...values.map((v) => norm.value(v))]);
    },
    async awaitClose(name, ms) {
      const s = session(name);
      await s.awaitClose(ms);
      drain(name, s.frames.length - 1);
    },
    async awaitEvent(name, type, path, ms = 30_000) {
      const s = session(name);
      // Frames only grow: each wake-up looks at the ones that came since the last, not all of them again.
      let next = cursors.get(name) ?? 0;
      const seen = (): boolean => {
        for (; next < s.frames.length; next++) {
          const f = s.frames[next];
          if (f?.kind === 'event' && f.event.type === type && f.event.path === path) return true;
        }
        return false;
      };
      await s.until(seen, `a type ${type} event for ${path} on ${name}`, ms);
    },
    drop(name) {
      session(name).destroy();
    },
    session,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  };
  try {
    await scenario(ctx);
    // Whatever each session still has queued (events from others' writes) arrives before a ping's reply.
    for (const [name, s] of sessions) {
      if (s.closed) continue;
      const ping = await s.call(11, null);
      const at = s.frames.indexOf(ping);
      drain(name, at - 1);
      cursors.set(name, at + 1);
    }
    // Sessions end now, each in its own closeSession, so no expiry lands in a later scenario: one whose
    // connection the server closed (auth failure, bad request) is re-attached first, unrecorded.
    const ended = new Set<bigint>();
    for (const s of sessions.values()) {
      const id = s.response?.sessionId ?? 0n;
      if (id === 0n || ended.has(id)) continue;
      ended.add(id);
      let live: RawSession | undefined = s.closed ? undefined : s;
      if (live === undefined) {
        const again = await RawSession.open(connectString, { sessionId: id, passwd: s.response?.passwd ?? new Uint8Array(16), timeout: 4000 });
        live = again.handshake.kind === 'connected' && again.handshake.response.timeOut > 0 ? again.session : undefined;
        if (live === undefined) again.session.destroy();
        else sessions.set(`${id}-cleanup`, live);
      }
      if (live === undefined) continue;
      await live.call(-11, null);
      await live.awaitClose();
    }
  } finally {
    for (const s of sessions.values()) s.destroy();
  }
  return log;
}

export { KeeperCode };
