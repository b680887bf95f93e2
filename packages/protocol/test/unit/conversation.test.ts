/**
 * The conversation decoder against a real session of ZooKeeper's Java client (fixtures/java-client-session.json):
 * every frame decodes, and what the decoder says agrees with what the Java program logged, line by line. Broken
 * conversations are in conversation-broken.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { frameWithLength } from '../../src/codec/frame.js';
import { ConversationStream, decodeConversation, type ConversationEntry } from '../../src/inspect/conversation.js';
import { formatConversationEntry } from '../../src/inspect/format.js';
import type { JsonObject, JsonValue } from '../../src/inspect/json.js';

interface Session {
  javaClientLog: string[];
  connections: { frames: { dir: 'c2s' | 's2c'; hex: string }[] }[];
}

const session = JSON.parse(
  readFileSync(new URL('../fixtures/java-client-session.json', import.meta.url), 'utf8'),
) as Session;
const frames = session.connections[0]!.frames.map((f) => ({ dir: f.dir, frame: new Uint8Array(Buffer.from(f.hex, 'hex')) }));

const obj = (v: JsonValue | undefined): JsonObject => {
  expect(v, 'an object').toBeTypeOf('object');
  return v as JsonObject;
};
const arr = (v: JsonValue | undefined): JsonValue[] => {
  expect(Array.isArray(v), 'an array').toBe(true);
  return v as JsonValue[];
};
const text = (v: JsonValue | undefined): string | undefined => (obj(v).utf8 as string | undefined);

// Java's KeeperException.Code names in the log → zkts code names.
const JAVA_CODES: Record<string, string> = {
  UNIMPLEMENTED: 'UNIMPLEMENTED',
  NODEEXISTS: 'NODE_EXISTS',
  NONODE: 'NO_NODE',
  BADVERSION: 'BAD_VERSION',
  NOTEMPTY: 'NOT_EMPTY',
};

/** What each log line says about the reply that produced it (`rhs`: the text after "->"), and its request. */
type Check = (reply: ConversationEntry, request: ConversationEntry, rhs: string) => void;
const ok = (reply: ConversationEntry): void => expect(reply.err).toBe('OK');
const failsWith = (reply: ConversationEntry, rhs: string): void => expect(reply.err).toBe(JAVA_CODES[rhs]);
const created = (reply: ConversationEntry, rhs: string): void => {
  ok(reply);
  expect(obj(reply.body).path).toBe(rhs.split(' ')[0]);
};
const listed = (v: JsonValue | undefined, rhs: string): void => {
  const inside = /^\[(.*)\]/.exec(rhs)?.[1] ?? '';
  expect(arr(v)).toEqual(inside.split(', '));
};

const EXPECTED: [line: string, op: string, check: Check][] = [
  ['create /pub-transcript -> /pub-transcript', 'create', (rep, req, rhs) => {
    created(rep, rhs);
    expect(req.path).toBe('/pub-transcript');
  }],
  ['create2 /pub-transcript/p -> /pub-transcript/p czxid=30850', 'create2', (rep, _req, rhs) => {
    created(rep, rhs);
    expect(obj(obj(rep.body).stat).czxid).toBe(/czxid=(\d+)/.exec(rhs)?.[1]);
  }],
  ['create eph-seq -> /pub-transcript/p/lock-0000000000', 'create', (rep, req, rhs) => {
    created(rep, rhs);
    expect(obj(req.body).flags).toBe('EPHEMERAL_SEQUENTIAL');
  }],
  ['create eph-seq -> /pub-transcript/p/lock-0000000001', 'create', (rep, req, rhs) => {
    created(rep, rhs);
    expect(obj(req.body).flags).toBe('EPHEMERAL_SEQUENTIAL');
  }],
  ['create container -> /pub-transcript/c', 'createContainer', (rep, req, rhs) => {
    created(rep, rhs);
    expect(obj(req.body).flags).toBe('CONTAINER');
  }],
  ['createTTL -> UNIMPLEMENTED', 'createTTL', (rep, req, rhs) => {
    failsWith(rep, rhs);
    expect(obj(req.body).flags).toBe('PERSISTENT_WITH_TTL');
    expect(rep.body).toBeUndefined();
  }],
  ['create /pub-transcript -> NODEEXISTS', 'create', (rep, req, rhs) => {
    failsWith(rep, rhs);
    expect(req.path).toBe('/pub-transcript');
  }],
  ['create missing parent -> NONODE', 'create', (rep, req, rhs) => {
    failsWith(rep, rhs);
    expect(req.path).toBe('/pub-transcript/missing/x');
  }],
  ['getData /pub-transcript watch -> hello version=0', 'getData', (rep, req) => {
    ok(rep);
    expect(req.path).toBe('/pub-transcript');
    expect(obj(req.body).watch).toBe(true);
    expect(text(obj(rep.body).data)).toBe('hello');
    expect(obj(obj(rep.body).stat).version).toBe(0);
  }],
  ['exists missing watch -> null', 'exists', (rep, req) => {
    // Java's exists() turns NONODE into null.
    expect(rep.err).toBe('NO_NODE');
    expect(obj(req.body).watch).toBe(true);
  }],
  ['getChildren /pub-transcript/p watch -> [lock-0000000001, lock-0000000000]', 'getChildren', (rep, req, rhs) => {
    ok(rep);
    expect(req.path).toBe('/pub-transcript/p');
    expect(obj(req.body).watch).toBe(true);
    listed(obj(rep.body).children, rhs);
  }],
  ['getChildren2 /pub-transcript -> [p, c] numChildren=2', 'getChildren2', (rep, _req, rhs) => {
    ok(rep);
    listed(obj(rep.body).children, rhs);
    expect(obj(obj(rep.body).stat).numChildren).toBe(2);
  }],
  ['setData /pub-transcript -> version=1', 'setData', (rep, req) => {
    ok(rep);
    expect(req.path).toBe('/pub-transcript');
    expect(obj(obj(rep.body).stat).version).toBe(1);
  }],
  ['setData bad version -> BADVERSION', 'setData', (rep, req, rhs) => {
    failsWith(rep, rhs);
    expect(obj(req.body).version).toBe(99);
  }],
  ['create /pub-transcript/nope -> /pub-transcript/nope', 'create', (rep, _req, rhs) => created(rep, rhs)],
  ['multi ok -> 4 results', 'multi', (rep, req) => {
    ok(rep);
    expect(arr(obj(req.body).ops).map((o) => obj(o).op)).toEqual(['create', 'check', 'setData', 'delete']);
    const results = arr(obj(rep.body).results).map(obj);
    expect(results.map((r) => r.op)).toEqual(['create', 'check', 'setData', 'delete']);
    expect(results[0]!.path).toBe('/pub-transcript/m1');
    expect(obj(rep.body).failed).toBeUndefined();
  }],
  ['multi failing -> BADVERSION', 'multi', (rep) => {
    // A failed multi is still err 0 at the header; the failing op carries the code.
    ok(rep);
    const results = arr(obj(rep.body).results).map(obj);
    expect(results.map((r) => r.err)).toEqual(['OK', 'BAD_VERSION']);
    expect(obj(rep.body).failed).toEqual({ index: 1, err: 'BAD_VERSION' });
  }],
  ['multiRead -> 2 results', 'multiRead', (rep, req) => {
    ok(rep);
    expect(arr(obj(req.body).ops).map((o) => obj(o).op)).toEqual(['getChildren', 'getData']);
    const results = arr(obj(rep.body).results).map(obj);
    expect(results).toHaveLength(2);
    expect(results[0]!.children).toEqual(['p', 'c', 'nope']);
    expect(text(results[1]!.data)).toBe('world');
  }],
  ["getACL -> [31,s{'world,'anyone}\n]", 'getACL', (rep) => {
    ok(rep);
    expect(obj(rep.body).acl).toEqual([{ perms: 31, id: { scheme: 'world', id: 'anyone' } }]);
  }],
  ['create with digest acl -> /pub-transcript/secret', 'create', (rep, req, rhs) => {
    created(rep, rhs);
    expect(obj(obj(arr(obj(req.body).acl)[0]).id).scheme).toBe('digest');
  }],
  ['setACL -> aversion=1', 'setACL', (rep) => {
    ok(rep);
    expect(obj(obj(rep.body).stat).aversion).toBe(1);
  }],
  ['whoAmI -> 2 identities', 'whoAmI', (rep) => {
    ok(rep);
    expect(obj(rep.body).clientInfo).toEqual([
      { authScheme: 'digest', user: 'alice' },
      { authScheme: 'ip', user: '127.0.0.1' },
    ]);
  }],
  ['addWatch persistentRecursive /pub-transcript/p -> ok', 'addWatch', (rep, req) => {
    ok(rep);
    expect(req.path).toBe('/pub-transcript/p');
    expect(obj(req.body).mode).toBe('PERSISTENT_RECURSIVE');
  }],
  ['getEphemerals -> [/pub-transcript/p/lock-0000000000, /pub-transcript/p/lock-0000000001]', 'getEphemerals',
    (rep, _req, rhs) => {
      ok(rep);
      listed(obj(rep.body).ephemerals, rhs);
    }],
  ['getAllChildrenNumber -> 6', 'getAllChildrenNumber', (rep, _req, rhs) => {
    ok(rep);
    expect(obj(rep.body).totalNumber).toBe(Number(rhs));
  }],
  ['sync -> ok', 'sync', (rep) => {
    ok(rep);
    expect(obj(rep.body).path).toBe('/pub-transcript');
  }],
  ['delete /pub-transcript/nope -> ok', 'delete', (rep, req) => {
    ok(rep);
    expect(req.path).toBe('/pub-transcript/nope');
  }],
  ['delete non-empty -> NOTEMPTY', 'delete', (rep, _req, rhs) => failsWith(rep, rhs)],
  // Java's removeWatches(path, watcher, type, local) goes out as checkWatches (17); removeAllWatches is 18.
  ['removeWatches -> ok', 'checkWatches', (rep, req) => {
    ok(rep);
    expect(obj(req.body).type).toBe('Any');
  }],
];

/** Replies the program made without logging them: the exists that set the watch removeWatches then removed. */
const UNLOGGED = new Set(['exists /pub-transcript/c', 'closeSession']);

/** The Java log, with ACL.toString's embedded newline joined back. */
function logLines(): string[] {
  const out: string[] = [];
  for (const line of session.javaClientLog) {
    if (line.includes(' -> ') || line.startsWith('event ') || out.length === 0) out.push(line);
    else out[out.length - 1] += `\n${line}`;
  }
  return out;
}

describe('conversation decoder on a Java client session', () => {
  const entries = decodeConversation(frames);

  it('decodes every frame without an error or a note', () => {
    expect(entries).toHaveLength(frames.length);
    for (const e of entries) {
      expect(e.kind, formatConversationEntry(e)).not.toBe('error');
      expect(e.notes, formatConversationEntry(e)).toBeUndefined();
    }
  });

  it('reads the handshake: new session, negotiated timeout, session id, readOnly byte', () => {
    const [connect, connected] = entries;
    expect(connect!.kind).toBe('connect');
    expect(connect!.body).toMatchObject({ protocolVersion: 0, sessionId: '0', timeOut: 6000, readOnly: false });
    expect(connect!.body!.passwd).toEqual({ length: 16, redacted: true });
    expect(connected!.kind).toBe('connected');
    expect(connected!.body).toMatchObject({ timeOut: 6000, sessionId: BigInt('0x10000012a0f000d').toString(), readOnly: false, expired: false });
  });

  it('agrees with the Java client log line by line', () => {
    const lines = logLines();
    const logged = lines.filter((l) => !l.startsWith('event '));
    expect(logged.map((l) => l)).toEqual(EXPECTED.map(([line]) => line));
    const requests = new Map<number, ConversationEntry>();
    let next = 0;
    for (const e of entries) {
      if (e.dir === 'c2s' && e.kind === 'request') requests.set(e.xid!, e);
      if (e.kind !== 'reply') continue;
      const request = requests.get(e.xid!);
      expect(request, `request of xid ${e.xid}`).toBeDefined();
      expect(e.op).toBe(request!.op);
      const expected = EXPECTED[next];
      if (expected === undefined || expected[1] !== e.op) {
        expect(UNLOGGED.has(`${e.op}${e.path === undefined ? '' : ` ${e.path}`}`), formatConversationEntry(e)).toBe(true);
        continue;
      }
      const [line, , check] = expected;
      check(e, request!, line.slice(line.indexOf(' -> ') + 4));
      next++;
    }
    expect(next).toBe(EXPECTED.length);
  });

  it('finds the two watch events the Java client saw, in order', () => {
    const seen = logLines().filter((l) => l.startsWith('event '));
    expect(seen).toHaveLength(2);
    const events = entries.filter((e) => e.kind === 'event');
    // The first two fired while the session was open; the NodeDeleted ones come after closeSession.
    for (const [i, line] of seen.entries()) {
      const [, type, path] = line.split(' ');
      expect(events[i]!.body).toEqual({ type, state: 'SyncConnected', path });
      expect(events[i]!.xid).toBe(-1);
    }
  });

  it('matches auth out of the FIFO and keeps it secret unless asked', () => {
    const auth = entries.filter((e) => e.kind === 'auth');
    expect(auth.map((e) => [e.dir, e.xid])).toEqual([['c2s', -4], ['s2c', -4]]);
    expect(auth[0]!.body).toMatchObject({ scheme: 'digest', auth: { length: 12, redacted: true } });
    expect(auth[1]!.err).toBe('OK');
    const revealed = decodeConversation(frames, { revealSecrets: true }).find((e) => e.kind === 'auth');
    expect(revealed!.body!.auth).toEqual({ length: 12, utf8: 'alice:secret' });
  });

  it('renders one readable line per entry', () => {
    const lines = entries.map(formatConversationEntry);
    expect(lines[0]).toBe('c2s connect protocolVersion=0 lastZxidSeen=0x0 timeOut=6000 sessionId=0x0 passwd=<16 bytes> readOnly=false');
    expect(lines[1]).toBe('s2c connected protocolVersion=0 timeOut=6000 sessionId=0x10000012a0f000d passwd=<16 bytes> readOnly=false');
    expect(lines).toContain('c2s xid=3 create /pub-transcript/p/lock- data="hello" acl=[world:anyone=ALL] flags=EPHEMERAL_SEQUENTIAL');
    expect(lines).toContain('s2c xid=3 zxid=0x7883 create /pub-transcript/p/lock- OK path=/pub-transcript/p/lock-0000000000');
    expect(lines).toContain('s2c xid=7 zxid=0x7887 create /pub-transcript NODE_EXISTS');
    expect(lines).toContain('s2c event NodeDataChanged /pub-transcript state=SyncConnected');
    expect(lines).toContain('s2c xid=17 zxid=0x788d multi OK results=[error OK; error BAD_VERSION] failed={index=1 err=BAD_VERSION}');
    for (const l of lines) expect(l).not.toContain('\n');
    // A session id of a server with id 128 or more is a negative long: shown unsigned, as ZooKeeper's logs show it.
    const connected = entries[1]!;
    const high = { ...connected, body: { ...connected.body, sessionId: String(BigInt.asIntN(64, 0x810000012a0f000dn)) } };
    expect(formatConversationEntry(high)).toContain(' sessionId=0x810000012a0f000d ');
  });

  it('is plain JSON', () => {
    const json = JSON.parse(JSON.stringify(entries)) as unknown;
    expect(json).toEqual(entries);
  });

  it('gives the same entries when fed raw TCP chunks through ConversationStream', () => {
    const stream = new ConversationStream();
    const out: ConversationEntry[] = [];
    for (const f of frames) {
      const bytes = frameWithLength(f.frame);
      // Two uneven chunks per frame, to cross chunk borders.
      const cut = Math.floor(bytes.byteLength / 3);
      out.push(...stream.push(f.dir, bytes.subarray(0, cut)), ...stream.push(f.dir, bytes.subarray(cut)));
    }
    expect(out).toEqual(entries);
  });
});
