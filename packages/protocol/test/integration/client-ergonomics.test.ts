// What a Node developer expects of the results, against the real server: data as a Buffer (text and JSON in one
// call), Stat times a Date takes and a Stat that JSON.stringify can write, `{ watch: true }` typed without `!`,
// the `logger` option, and EventEmitter-style on/once/off (Node's events.once included).
import { once, type EventEmitter } from 'node:events';
import { Buffer } from 'node:buffer';

import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';

import { createClient, InvalidArgumentError, type Logger, type StateChange, type WatchEvent, type ZkClient } from '@zkts/protocol';

import { hostPort, open, sharedServer, uniqueRoot } from '../support/integration.js';

type LogLine = [level: string, message: string, details: Record<string, unknown> | undefined];

function recordingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (message: string, details?: Record<string, unknown>) => void lines.push([level, message, details]);
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

describe('client ergonomics', () => {
  let zk: ZkClient;
  const root = uniqueRoot('ergonomics');

  beforeAll(async () => {
    zk = await open(sharedServer());
    await zk.create(root);
  });
  afterAll(async () => {
    await zk.removeRecursive(root);
    await zk.close();
  });

  it('getData gives a Buffer: toString() is the text, JSON.parse(data) the value', async () => {
    await zk.create(`${root}/json`, JSON.stringify({ a: 1, é: 'ü' }));
    const { data } = await zk.getData(`${root}/json`);
    expect(Buffer.isBuffer(data)).toBe(true);
    expect(data.toString()).toBe('{"a":1,"é":"ü"}');
    expect(JSON.parse(data.toString())).toEqual({ a: 1, é: 'ü' });
    // A Buffer is still the Uint8Array the API promised before.
    expect(data).toBeInstanceOf(Uint8Array);
    const [read] = await zk.multiRead([{ op: 'getData', path: `${root}/json` }]);
    expect(read?.op === 'getData' && Buffer.isBuffer(read.data)).toBe(true);
  });

  it("ctime and mtime are ms numbers a Date takes; ids stay bigints", async () => {
    const before = Date.now();
    const { stat: created } = await zk.create(`${root}/times`, 'a');
    const { stat } = await zk.getData(`${root}/times`);
    expect(typeof stat.ctime).toBe('number');
    expect(typeof stat.czxid).toBe('bigint');
    expect(typeof stat.ephemeralOwner).toBe('bigint');
    // The server runs on this machine: its clock is ours.
    expect(Math.abs(stat.ctime - before)).toBeLessThan(60_000);
    expect(new Date(stat.mtime).getTime()).toBe(stat.mtime);
    expect(stat).toEqual(created);
    await new Promise((r) => setTimeout(r, 5));
    const changed = await zk.setData(`${root}/times`, 'b');
    expect(changed.mtime).toBeGreaterThan(stat.mtime);
    expect(changed.ctime).toBe(stat.ctime);
  });

  it('JSON.stringify(stat) writes bigints as decimal strings, from every call that returns a Stat', async () => {
    const { stat } = await zk.create(`${root}/json-stat`, 'x', { mode: 'ephemeral' });
    const json = JSON.parse(JSON.stringify(stat)) as Record<string, unknown>;
    expect(json).toEqual({
      czxid: stat.czxid.toString(),
      mzxid: stat.mzxid.toString(),
      ctime: stat.ctime,
      mtime: stat.mtime,
      version: 0,
      cversion: 0,
      aversion: 0,
      ephemeralOwner: zk.sessionId.toString(),
      dataLength: 1,
      numChildren: 0,
      pzxid: stat.pzxid.toString(),
    });
    const stats = [
      await zk.exists(`${root}/json-stat`),
      (await zk.getChildren(root)).stat,
      (await zk.getACL(root)).stat,
      await zk.setData(`${root}/json-stat`, 'y'),
      await zk.setACL(`${root}/json-stat`, [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }]),
      ...(await zk.multi([{ op: 'setData', path: `${root}/json-stat`, data: 'z' }])).map((r) => (r.op === 'setData' ? r.stat : null)),
    ];
    for (const s of stats) expect(() => JSON.stringify(s)).not.toThrow();
    expect(JSON.parse(JSON.stringify(stats[4])).aversion).toBe(1);
  });

  it('{ watch: true } resolves with a watch promise, typed without `!`', async () => {
    await zk.create(`${root}/watched`, 'v');
    const data = await zk.getData(`${root}/watched`, { watch: true });
    const children = await zk.getChildren(root, { watch: true });
    expectTypeOf(data.watch).toEqualTypeOf<Promise<WatchEvent>>();
    expectTypeOf(children.watch).toEqualTypeOf<Promise<WatchEvent>>();
    // Without a watch, or with a listener, there is no `watch` in the type.
    expectTypeOf(await zk.getData(`${root}/watched`)).not.toHaveProperty('watch');
    expectTypeOf(await zk.getChildren(root, { watch: () => undefined })).not.toHaveProperty('watch');
    await zk.setData(`${root}/watched`, 'w');
    await zk.create(`${root}/another`);
    expect((await data.watch).type).toBe('dataChanged');
    expect((await children.watch).type).toBe('childrenChanged');
  });

  it('the logger hears connected and closed (info), a refused attempt (warn) and a throwing listener (error)', async () => {
    const { logger, lines } = recordingLogger();
    const { host } = hostPort(sharedServer());
    // A closed port first, then the server: the first attempt fails, the second connects.
    const dead = `${host}:1`;
    const client = createClient(`${dead},${sharedServer()}`, { logger, shuffle: false, sessionTimeout: 4000, connectTimeout: 1000 });
    client.onStateChange(() => {
      throw new Error('listener bug');
    });
    await client.connect();
    const id = `0x${client.sessionId.toString(16)}`;
    await client.close();
    await new Promise((r) => setImmediate(r));
    expect(lines.some(([level, message, details]) => level === 'warn' && message.startsWith(`zkts: could not connect to ${dead}: `) && details?.server === dead)).toBe(true);
    const live = sharedServer().split(',')[0];
    expect(lines).toContainEqual(['info', `zkts: connected to ${live} (session ${id}, timeout 4000 ms)`, { server: live, sessionId: id, timeoutMs: 4000, readOnly: false }]);
    expect(lines).toContainEqual(['info', `zkts: closed (session ${id})`, { sessionId: id }]);
    expect(lines.some(([level, message, details]) => level === 'error' && message === 'zkts: a listener threw' && (details?.error as Error).message === 'listener bug')).toBe(true);
    // Nothing in the details is a bigint: a JSON logger can write them.
    expect(() => JSON.stringify(lines.filter(([, m]) => m !== 'zkts: a listener threw'))).not.toThrow();
  });

  it('a logger that throws breaks nothing', async () => {
    const angry: Logger = {
      info: () => {
        throw new Error('logger down');
      },
    };
    const client = await open(sharedServer(), { logger: angry });
    expect((await client.exists('/'))?.czxid).toBe(0n);
    await client.close();
  });

  it('on/once/off: per-state events, every change, and Node’s events.once', async () => {
    const client = createClient(sharedServer(), { sessionTimeout: 4000 });
    const states: string[] = [];
    const connected: StateChange[] = [];
    const onState = (c: StateChange): void => void states.push(c.state);
    client.on('state', onState).once('connected', (c) => void connected.push(c));
    // Node's types for events.once want a whole EventEmitter; at run time on/once/removeListener are all it calls.
    const viaEvents = once(client as unknown as EventEmitter, 'connected');
    await client.connect();
    const [change] = (await viaEvents) as [StateChange];
    expect(change.state).toBe('connected');
    expect(connected).toHaveLength(1);
    expect(connected[0]?.sessionId).toBe(client.sessionId);
    client.off('state', onState);
    const closed = once(client as unknown as EventEmitter, 'closed');
    await client.close();
    await closed;
    // off() took the 'state' listener away before close: it saw only the connect.
    expect(states).toEqual(['connecting', 'connected']);
    expect(() => client.on('disconnected' as 'closed', () => undefined)).toThrow(InvalidArgumentError);
  });
});
