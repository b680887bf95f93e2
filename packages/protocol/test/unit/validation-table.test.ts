// Every door of @zkts/protocol checks what it is given: for each exported function/constructor, each ZkClient
// method and each key of each options type, bad values (wrong type, NaN, negative, huge, empty, unknown near-miss
// keys, a non-object options argument) fail at once (one event-loop turn) with InvalidArgumentError naming the
// option and showing the value. The lists of exports, methods and option keys come from the sources, so a new
// one without rows here fails the coverage tests. The client is never connected: validation precedes I/O.
import { afterAll, describe, expect, it, vi } from 'vitest';

import * as protocol from '../../src/index.js';
import { InvalidArgumentError, createClient, type ClientOptions } from '../../src/index.js';
import {
  badValue,
  badValuesFor,
  coveredOptions,
  expectRejectsAtOnce,
  exportedCallables,
  mentionsOf,
  optionCases,
  optionKeysOf,
  policyCases,
  publicMethodsOf,
  type BadCase,
  type BadValue,
} from '../../../../test/support/validation.js';

const HOST = '127.0.0.1:1';
const zk = createClient(HOST);
afterAll(() => zk.close());
const any = (v: unknown): never => v as never;
const bv = badValue;
const huge = bv('2^31 ms', 2 ** 31);

// ---- option specs per options type (keys must equal the type's keys) ----------------------------------------

const callSpecs = {
  signal: 'signal',
  timeout: [...badValuesFor('number'), bv('-1', -1), huge],
  retry: [...badValuesFor('object'), bv('an object without delayBefore', {}, ['retry', 'delayBefore'])],
} as const;

const clientSpecs = {
  sessionTimeout: [...badValuesFor('positive'), huge],
  connectTimeout: [...badValuesFor('number'), bv('0', 0), bv('-1', -1), huge],
  requestTimeout: [...badValuesFor('number'), bv('-1', -1), huge],
  maxPacket: [...badValuesFor('positive'), huge],
  maxQueued: 'nonNegative',
  canBeReadOnly: 'boolean',
  shuffle: 'boolean',
  renewSession: 'boolean',
  renewWatches: 'boolean',
  trackEnsemble: 'boolean',
  waitForServer: 'boolean',
  whileSuspended: [...badValuesFor('string'), bv('empty', ''), bv('another word', 'wait')],
  tls: badValuesFor('object'),
  sasl: [...badValuesFor('object'), bv('an unknown mechanism', { mechanism: 'PLAIN' }, ['sasl', '"PLAIN"'])],
  retry: callSpecs.retry,
  clock: [...badValuesFor('object'), bv('an object without now', { setTimeout: () => 1, clearTimeout: () => 1 }, ['clock.now'])],
  logger: [...badValuesFor('object'), bv('a logger with a non-function warn', { warn: 'x' }, ['logger.warn', '"x"'])],
  sessionId: [bv('a number', 1), bv('a string', '1'), bv('-1n', -1n), bv('2^64', 2n ** 64n)],
  sessionPassword: [bv('a string', 'secret'), bv('an array', [1]), bv('null', null)],
  random: badValuesFor('function'),
  recipeErrorPolicy: [...badValuesFor('string'), bv('empty', ''), bv('another word', 'lost')],
  aclProvider: [
    ...badValuesFor('object'),
    bv('no default', {}, ['aclProvider', 'default']),
    bv('an empty default', { default: [] }, ['aclProvider', 'default']),
    bv('a default with perms NaN', { default: [{ perms: Number.NaN, id: { scheme: 'world', id: 'anyone' } }] }, ['aclProvider', 'NaN']),
    bv('a non-function forPath', { default: protocol.Acls.openUnsafe(), forPath: 'x' }, ['aclProvider.forPath', '"x"']),
  ],
  reconnectDelay: [
    ...badValuesFor('object'),
    bv('min above max', { min: 900, max: 100 }, ['reconnectDelay', '900']),
    bv('a negative min', { min: -1, max: 100 }, ['reconnectDelay', '-1']),
    bv('max NaN', { min: 0, max: Number.NaN }, ['reconnectDelay', 'NaN']),
    bv('max past a minute', { min: 0, max: 60_001 }, ['reconnectDelay', '60001']),
  ],
  backgroundWrites: [
    ...badValuesFor('object'),
    bv('maxAttempts 0', { maxAttempts: 0 }, ['backgroundWrites.maxAttempts', '0']),
    bv('maxAttempts 1.5', { maxAttempts: 1.5 }, ['backgroundWrites.maxAttempts', '1.5']),
    bv('maxTime -1', { maxTime: -1 }, ['backgroundWrites.maxTime', '-1']),
    bv('maxTime NaN', { maxTime: Number.NaN }, ['backgroundWrites.maxTime', 'NaN']),
    bv('a near-miss key', { maxAttempt: 3 }, ['maxAttempt', 'maxAttempts']),
  ],
} as const;
// `auth` entries (scheme/credential pairs) are checked with the connect path's credential handling.
const CLIENT_KEYS_COVERED_ELSEWHERE = ['auth'];

const createSpecs = {
  ...callSpecs,
  mode: [...badValuesFor('string'), bv('an unknown mode', 'forever')],
  acl: [...badValuesFor('array'), bv('empty', []), bv('perms NaN', [{ perms: Number.NaN, id: { scheme: 'world', id: 'anyone' } }], ['acl', 'perms', 'NaN'])],
  ttl: [bv('ttl without a TTL mode', 1000)],
  protected: 'boolean',
} as const;
const ttlModeSpecs = { ttl: [...badValuesFor('positive'), bv('2^40', 2 ** 40)] } as const;
const watchSpecs = { ...callSpecs, watch: [bv('false', false), bv('a string', 'yes'), bv('a number', 1), bv('null', null), bv('an object', {})] } as const;
const versionSpecs = { ...callSpecs, version: [...badValuesFor('integer'), bv('-2', -2), bv('2^31', 2 ** 31)] } as const;
const reconfigSpecs = {
  ...callSpecs,
  joining: badValuesFor('nonEmptyString'),
  leaving: badValuesFor('nonEmptyString'),
  newMembers: badValuesFor('nonEmptyString'),
  fromConfig: [bv('a number', 1), bv('-2n', -2n), bv('2^63', 2n ** 63n)],
} as const;
const backoffSpecs = {
  baseDelay: [...badValuesFor('number'), bv('-1', -1), huge],
  maxDelay: [...badValuesFor('number'), bv('-1', -1), huge],
  maxRetries: 'nonNegative',
  maxElapsed: [...badValuesFor('number'), bv('-1', -1), huge],
  jitter: 'boolean',
  random: 'function',
} as const;
const cancelSpecs = {
  signal: 'signal',
  timeout: callSpecs.timeout,
  deadline: [...badValuesFor('number')],
} as const;
const digestSpecs = { username: badValuesFor('nonEmptyString'), password: badValuesFor('string'), protocol: badValuesFor('nonEmptyString'), serverName: badValuesFor('nonEmptyString') } as const;
const digestBase = { username: 'u', password: 'p' };

const ops = {
  create: (o: unknown) => zk.create('/a', null, any(o)),
  delete: (o: unknown) => zk.delete('/a', any(o)),
  exists: (o: unknown) => zk.exists('/a', any(o)),
  getData: (o: unknown) => zk.getData('/a', any(o)),
  setData: (o: unknown) => zk.setData('/a', 'x', any(o)),
  getACL: (o: unknown) => zk.getACL('/a', any(o)),
  setACL: (o: unknown) => zk.setACL('/a', protocol.Acls.openUnsafe(), any(o)),
  getChildren: (o: unknown) => zk.getChildren('/a', any(o)),
  sync: (o: unknown) => zk.sync('/a', any(o)),
  multi: (o: unknown) => zk.multi([{ op: 'check', path: '/a' }], any(o)),
  multiRead: (o: unknown) => zk.multiRead([{ op: 'getData', path: '/a' }], any(o)),
  getEphemerals: (o: unknown) => zk.getEphemerals('/', any(o)),
  getAllChildrenNumber: (o: unknown) => zk.getAllChildrenNumber('/a', any(o)),
  whoAmI: (o: unknown) => zk.whoAmI(any(o)),
  addWatch: (o: unknown) => zk.addWatch('/a', 'persistent', any(o)),
  removeWatches: (o: unknown) => zk.removeWatches('/a', 'any', any(o)),
  removeWatcher: (o: unknown) => zk.removeWatcher('/a', () => undefined, 'any', any(o)),
  checkWatches: (o: unknown) => zk.checkWatches('/a', 'data', any(o)),
  getConfig: (o: unknown) => zk.getConfig(any(o)),
  mkdirp: (o: unknown) => zk.mkdirp('/a/b', any(o)),
  removeRecursive: (o: unknown) => zk.removeRecursive('/a', any(o)),
  connected: (o: unknown) => zk.connected(any(o)),
  addAuth: (o: unknown) => zk.addAuth('digest', 'u:p', any(o)),
} as const;
const opSpecs: Record<keyof typeof ops, Record<string, unknown>> = {
  create: createSpecs, delete: { ...versionSpecs, guaranteed: badValuesFor('boolean') }, exists: watchSpecs, getData: watchSpecs,
  setData: versionSpecs, getACL: callSpecs, setACL: versionSpecs, getChildren: watchSpecs, sync: callSpecs, multi: callSpecs,
  multiRead: callSpecs, getEphemerals: callSpecs, getAllChildrenNumber: callSpecs, whoAmI: callSpecs, addWatch: callSpecs,
  removeWatches: { ...callSpecs, local: badValuesFor('boolean') }, removeWatcher: { ...callSpecs, local: badValuesFor('boolean') }, checkWatches: callSpecs, getConfig: watchSpecs,
  mkdirp: createSpecs, removeRecursive: callSpecs, connected: callSpecs, addAuth: callSpecs,
};

// ---- positional arguments ------------------------------------------------------------------------------------

const pos = (label: string, option: string, value: unknown, call: () => unknown): BadCase => (value === undefined ? { label, option, call } : { label, option, value, call });
const paths = [bv('a number', 1), bv('null', null), bv('empty', ''), bv('relative', 'a'), bv('trailing slash', '/a/')];
const pathCases: BadCase[] = [
  ...(['create', 'delete', 'exists', 'getData', 'getACL', 'getChildren', 'sync', 'getAllChildrenNumber', 'mkdirp', 'removeRecursive'] as const).flatMap((m) =>
    paths.map((p) => pos(`zk.${m}: path = ${p.label}`, 'path', p.value, () => (zk[m] as (p: unknown) => unknown)(p.value))),
  ),
  ...paths.map((p) => pos(`zk.setData: path = ${p.label}`, 'path', p.value, () => zk.setData(any(p.value), 'x'))),
  ...paths.map((p) => pos(`zk.setACL: path = ${p.label}`, 'path', p.value, () => zk.setACL(any(p.value), protocol.Acls.openUnsafe()))),
  ...paths.map((p) => pos(`zk.getEphemerals: prefixPath = ${p.label}`, 'path', p.value, () => zk.getEphemerals(any(p.value)))),
  ...paths.map((p) => pos(`zk.addWatch: path = ${p.label}`, 'path', p.value, () => zk.addWatch(any(p.value), 'persistent'))),
  ...paths.map((p) => pos(`zk.removeWatches: path = ${p.label}`, 'path', p.value, () => zk.removeWatches(any(p.value), 'any'))),
  ...paths.map((p) => pos(`zk.checkWatches: path = ${p.label}`, 'path', p.value, () => zk.checkWatches(any(p.value), 'data'))),
  // A sequential node's prefix may end in '/', so aclFor takes '/a/'.
  ...paths.filter((p) => p.value !== '/a/').map((p) => pos(`zk.aclFor: path = ${p.label}`, 'path', p.value, () => zk.aclFor(any(p.value)))),
  ...paths.map((p) => pos(`zk.removeWatcher: path = ${p.label}`, 'path', p.value, () => zk.removeWatcher(any(p.value), () => undefined))),
  ...paths.map((p) => pos(`zk.namespace: path = ${p.label}`, 'path', p.value, () => zk.namespace(any(p.value)))),
  pos('zk.namespace: path = /', 'path', '/', () => zk.namespace('/')),
];
const positional: BadCase[] = [
  ...pathCases,
  ...[bv('a number', 1), bv('an object', {}), bv('an array', [1])].map((d) => pos(`zk.create: data = ${d.label}`, 'data', d.value, () => zk.create('/a', any(d.value)))),
  ...[bv('a number', 1), bv('an object', {})].map((d) => pos(`zk.setData: data = ${d.label}`, 'data', d.value, () => zk.setData('/a', any(d.value)))),
  pos('zk.setData: data over maxPacket', 'data', undefined, () => createClient(HOST, { maxPacket: 4 }).setData('/a', 'hello')),
  ...[...badValuesFor('array'), bv('empty', [])].map((a) => pos(`zk.setACL: acl = ${a.label}`, 'acl', a.value, () => zk.setACL('/a', any(a.value)))),
  ...[...badValuesFor('array')].map((a) => pos(`zk.multi: ops = ${a.label}`, 'ops', a.value, () => zk.multi(any(a.value)))),
  pos('zk.multi: op = null', 'ops', undefined, () => zk.multi(any([null]))),
  ...[...badValuesFor('array')].map((a) => pos(`zk.multiRead: ops = ${a.label}`, 'ops', a.value, () => zk.multiRead(any(a.value)))),
  ...[bv('once', 'once'), bv('a number', 1), bv('null', null)].map((m) => pos(`zk.addWatch: mode = ${m.label}`, 'mode', m.value, () => zk.addWatch('/a', any(m.value)))),
  ...[bv('bogus', 'bogus'), bv('a number', 1), bv('null', null)].map((m) => pos(`zk.removeWatches: type = ${m.label}`, 'type', m.value, () => zk.removeWatches('/a', any(m.value)))),
  ...[bv('bogus', 'bogus'), bv('persistent', 'persistent'), bv('a number', 1), bv('null', null)].map((m) => pos(`zk.removeWatcher: type = ${m.label}`, 'type', m.value, () => zk.removeWatcher('/a', () => undefined, any(m.value)))),
  ...[bv('a string', 'x'), bv('a number', 1), bv('null', null), bv('an object', {})].map((w) => pos(`zk.removeWatcher: watcher = ${w.label}`, 'watcher', w.value, () => zk.removeWatcher('/a', any(w.value)))),
  ...[bv('bogus', 'bogus'), bv('a number', 1), bv('null', null)].map((m) => pos(`zk.checkWatches: type = ${m.label}`, 'type', m.value, () => zk.checkWatches('/a', any(m.value)))),
  ...badValuesFor('nonEmptyString').map((s) => pos(`zk.addAuth: scheme = ${s.label}`, 'scheme', s.value, () => zk.addAuth(any(s.value), 'x'))),
  ...[bv('a number', 1), bv('an object', {})].map((a) => pos(`zk.addAuth: auth = ${a.label}`, 'data', a.value, () => zk.addAuth('digest', any(a.value)))),
  ...[...badValuesFor('nonEmptyString'), bv('another chroot', '127.0.0.1:2/other', ['connectString', '/other'])].map((s) =>
    ({ ...pos(`zk.updateServers: connectString = ${s.label}`, 'connectString', s.value, () => zk.updateServers(any(s.value))), ...(s.mentions === undefined ? {} : { mentions: s.mentions }) })),
  ...(['on', 'once', 'off', 'removeListener'] as const).flatMap((m) => [
    pos(`zk.${m}: event = bogus`, 'event', 'bogus', () => zk[m](any('bogus'), () => undefined)),
    pos(`zk.${m}: event = a number`, 'event', 1, () => zk[m](any(1), () => undefined)),
    ...badValuesFor('function').map((f) => pos(`zk.${m}: listener = ${f.label}`, 'listener', f.value, () => zk[m]('state', any(f.value)))),
  ]),
  ...badValuesFor('function').map((f) => pos(`zk.onStateChange: listener = ${f.label}`, 'listener', f.value, () => zk.onStateChange(any(f.value)))),
  ...badValuesFor('function').map((f) => pos(`zk.onConnectFailure: listener = ${f.label}`, 'listener', f.value, () => zk.onConnectFailure(any(f.value)))),
  ...optionCases('zk.states', { signal: 'signal' }, (o) => zk.states(any(o))),
  ...optionCases('zk.connect', callSpecs, (o) => createClient(HOST).connect(any(o))),
  ...policyCases('zk.connect', 'timeout', (o) => createClient(HOST).connect(any(o))),
  ...policyCases('zk.states', 'signal', (o) => zk.states(any(o))),
];

// ---- exported functions -----------------------------------------------------------------------------------------

const connectStrings = [...badValuesFor('nonEmptyString'), bv('a bad port', 'h:99999'), bv('a relative chroot', 'h:1/a/')];
const functions: BadCase[] = [
  ...connectStrings.map((s) => pos(`createClient: connectString = ${s.label}`, 'connectString', s.value, () => createClient(any(s.value)))),
  ...connectStrings.map((s) => pos(`connect: connectString = ${s.label}`, 'connectString', s.value, () => protocol.connect(any(s.value)))),
  ...connectStrings.map((s) => pos(`parseConnectString: ${s.label}`, 'connectString', s.value, () => protocol.parseConnectString(any(s.value)))),
  ...paths.map((p) => pos(`validatePath: ${p.label}`, 'path', p.value, () => protocol.validatePath(any(p.value)))),
  ...optionCases('validatePath', { sequential: badValuesFor('boolean') }, (o) => protocol.validatePath('/a', any(o))),
  ...policyCases('validatePath', 'sequential', (o) => protocol.validatePath('/a', any(o))),
  ...[bv('a number', 1), bv('null', null)].flatMap((p) => [
    pos(`joinPath: part = ${p.label}`, 'parts', p.value, () => protocol.joinPath('/a', any(p.value))),
    pos(`parentPath: ${p.label}`, 'path', p.value, () => protocol.parentPath(any(p.value))),
    pos(`basename: ${p.label}`, 'path', p.value, () => protocol.basename(any(p.value))),
  ]),
  ...badValuesFor('string').flatMap((s) => [
    pos(`digestId: user = ${s.label}`, 'user', s.value, () => protocol.digestId(any(s.value), 'p')),
    pos(`digestId: password = ${s.label}`, 'password', s.value, () => protocol.digestId('u', any(s.value))),
  ]),
  ...badValuesFor('signal').map((s) => pos(`abortErrorFrom: signal = ${s.label}`, 'signal', s.value, () => protocol.abortErrorFrom(any(s.value)))),
  ...[...badValuesFor('object'), bv('a client-like object', { admin: {} })].map((c) => pos(`reconfig: client = ${c.label}`, 'client', c.value, () => protocol.reconfig(any(c.value), { newMembers: 'x' }))),
  ...[...badValuesFor('number'), bv('-1', -1), huge].map((m) => pos(`sleep: ms = ${m.label}`, 'ms', m.value, () => protocol.sleep(any(m.value)))),
  ...badValuesFor('nonEmptyString').map((w) => pos(`cancelScope: what = ${w.label}`, 'what', w.value, () => protocol.cancelScope({}, any(w.value)))),
  ...badValuesFor('object').map((c) => pos(`sleep: clock = ${c.label}`, 'clock', c.value, () => protocol.sleep(1, {}, any(c.value)))),
  ...[bv('a number', 1), bv('null', null)].map((p) => pos(`raceCancel: promise = ${p.label}`, 'promise', p.value, () => protocol.raceCancel(any(p.value), {}, 'x'))),
  ...[...badValuesFor('array')].map((k) => pos(`checkOptionKeys: knownKeys = ${k.label}`, 'knownKeys', k.value, () => protocol.checkOptionKeys({}, any(k.value), 'f'))),
  ...badValuesFor('nonEmptyString').map((w) => pos(`checkOptionKeys: where = ${w.label}`, 'where', w.value, () => protocol.checkOptionKeys({}, [], any(w.value)))),
];

// ---- option tables -----------------------------------------------------------------------------------------------

const tables: Record<string, { type: string; cases: BadCase[]; elsewhere?: string[] }> = {
  createClient: {
    type: 'ClientOptions',
    cases: [...optionCases('createClient', clientSpecs, (o) => createClient(HOST, any(o))), ...policyCases('createClient', 'sessionTimeout', (o) => createClient(HOST, any(o)))],
    elsewhere: CLIENT_KEYS_COVERED_ELSEWHERE,
  },
  connect: {
    type: 'ClientOptions',
    cases: [...optionCases('connect', { ...clientSpecs, ...callSpecs }, (o) => protocol.connect(HOST, any(o))), ...policyCases('connect', 'sessionTimeout', (o) => protocol.connect(HOST, any(o)))],
    elsewhere: CLIENT_KEYS_COVERED_ELSEWHERE,
  },
  'zk.create TTL': { type: 'CreateOptions', cases: optionCases('zk.create', ttlModeSpecs, (o) => zk.create('/a', null, any(o)), { mode: 'persistent-ttl' }), elsewhere: ['acl', 'mode', 'protected', 'retry', 'signal', 'timeout'] },
  'zk.admin.reconfig': { type: 'ReconfigOptions', cases: [...optionCases('zk.admin.reconfig', reconfigSpecs, (o) => zk.admin.reconfig(any(o)), { newMembers: 'server.1=h:1:2' }), ...policyCases('zk.admin.reconfig', 'joining', (o) => zk.admin.reconfig(any(o)))] },
  exponentialBackoff: { type: 'BackoffOptions', cases: [...optionCases('exponentialBackoff', backoffSpecs, (o) => protocol.exponentialBackoff(any(o))), ...policyCases('exponentialBackoff', 'maxRetries', (o) => protocol.exponentialBackoff(any(o)))] },
  cancelScope: { type: 'CancelOptions', cases: [...optionCases('cancelScope', cancelSpecs, (o) => protocol.cancelScope(any(o), 'x')), { label: 'cancelScope: options = null', option: 'options', value: null, call: () => protocol.cancelScope(any(null), 'x') }] },
  'new CancelScope': { type: 'CancelOptions', cases: optionCases('new CancelScope', cancelSpecs, (o) => new protocol.CancelScope(any(o), 'x')) },
  raceCancel: { type: 'CancelOptions', cases: optionCases('raceCancel', cancelSpecs, (o) => protocol.raceCancel(Promise.resolve(1), any(o), 'x')) },
  sleep: { type: 'CancelOptions', cases: optionCases('sleep', cancelSpecs, (o) => protocol.sleep(1, any(o))) },
  digestMd5: { type: 'DigestMd5Options', cases: [...optionCases('digestMd5', digestSpecs, (o) => protocol.digestMd5(any(o)), digestBase), ...policyCases('digestMd5', 'username', (o) => protocol.digestMd5(any(o)))] },
  'sasl DIGEST-MD5': {
    type: 'SaslOptions',
    cases: [
      ...optionCases('sasl', { ...digestSpecs, mechanism: [bv('PLAIN', 'PLAIN'), bv('a number', 1), bv('an object without start', { name: 'X' }, ['mechanism', 'object'])] }, (o) => createClient(HOST, { sasl: any(o) }), { mechanism: 'DIGEST-MD5', ...digestBase }),
      ...policyCases('sasl', 'password', (o) => createClient(HOST, { sasl: any(o === null ? null : { mechanism: 'DIGEST-MD5', ...digestBase, ...(o as object) }) }), 'sasl'),
    ],
  },
};
for (const [name, call] of Object.entries(ops)) {
  const type = { create: 'CreateOptions', mkdirp: 'CreateOptions', exists: 'WatchOptions', getData: 'WatchOptions', getChildren: 'WatchOptions', getConfig: 'WatchOptions' }[name] ?? 'CallOptions';
  const specs = opSpecs[name as keyof typeof ops] as Record<string, readonly BadValue[] | 'signal' | 'boolean'>;
  const first = Object.keys(specs).find((k) => k.length >= 4) ?? 'timeout';
  tables[`zk.${name}`] = { type, cases: [...optionCases(`zk.${name}`, specs, call), ...policyCases(`zk.${name}`, first, call)] };
}

// ---- the checks ----------------------------------------------------------------------------------------------------

const allCases = [...Object.values(tables).flatMap((t) => t.cases), ...positional, ...functions];

describe('every bad argument fails at once with InvalidArgumentError naming it and showing the value', () => {
  it.each(allCases.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      await expectRejectsAtOnce(c.call, { errorClass: InvalidArgumentError, code: 'INVALID_ARGUMENT', mentions: mentionsOf(c) });
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the tables cover the whole surface', () => {
  it.each(Object.entries(tables))('%s covers every key of its options type', (_name, t) => {
    const keys = optionKeysOf('@zkts/protocol', t.type);
    const covered = new Set([...coveredOptions(t.cases), ...(t.elsewhere ?? [])]);
    expect(keys.filter((k) => !covered.has(k))).toEqual([]);
  });

  it('ClientOptions keys are exactly the ones createClient knows (no warning for any of them)', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const keys = optionKeysOf('@zkts/protocol', 'ClientOptions');
    const options = Object.fromEntries(keys.map((k) => [k, undefined])) as ClientOptions;
    createClient(HOST, options).close().catch(() => undefined);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  // Callables whose every input is valid (predicates and formatters of `unknown`, error constructors that take
  // any message) or that are only made by the client itself.
  const TAKES_NO_CHECKED_INPUT = [
    'AbortError', 'AuthFailedError', 'ClientClosedError', 'ConnectTimeoutError', 'ConnectionLossError', 'InvalidArgumentError',
    'MultiError', 'NotZooKeeperError', 'ProtocolError', 'ServerError', 'SessionClosedRequireSaslAuthError', 'SessionExpiredError', 'TimeoutError',
    'UnreachableError', 'ZkError',
    'describeValue', 'isBrandedInstance', 'isRetryable', 'serverKeeperCode',
  ];
  // Covered by the option tables (keyed by function name) or the positional rows (label prefix).
  const covered = (name: string): boolean =>
    Object.keys(tables).some((t) => t === name || t === `new ${name}`) || allCases.some((c) => c.label.startsWith(`${name}:`));

  it('every exported function and class has rows (or is listed as taking no checked input)', () => {
    const missing = exportedCallables('@zkts/protocol').map((c) => c.name).filter((n) => n !== 'ZkClient' && !TAKES_NO_CHECKED_INPUT.includes(n) && !covered(n));
    expect(missing).toEqual([]);
  });

  it('every public ZkClient method has rows (close and stats take nothing)', () => {
    const missing = publicMethodsOf('@zkts/protocol', 'ZkClient').filter((m) => m !== 'close' && m !== 'stats' && !covered(`zk.${m}`));
    expect(missing).toEqual([]);
  });
});
