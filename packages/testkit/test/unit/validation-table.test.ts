// Every door of @zkts/testkit checks what it is given: each key of ServerOptions / EnsembleOptions / KdcOptions
// (and the sasl object), every exported function's arguments, ManualClock's and FrameCutter's methods and the
// methods of the handles the starters return (servers, ensembles, the KDC, the fault proxy) refuse
// bad values (wrong type, NaN, fractions, negative, out of range, empty, unknown words, near-miss keys, a
// non-object options argument) at once, before any JVM, container, KDC or socket starts, with InvalidOptionError
// (code ZKTS_TESTKIT_INVALID_OPTION) naming the option and showing the value. The keys and exported callables
// come from the sources, so a new option, export or method parameter without rows here fails the coverage tests.
// Starts use `backend: 'embedded'`, so a check that went missing fails here without starting a JVM; handle rows
// run on a started embedded server, or on handles built by their constructors and never started (a missing
// check then fails with another error, or reaches for a port nothing listens on).
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import * as testkit from '../../src/index.js';
import { ContainerZooKeeperServer, InvalidOptionError, LocalZooKeeperServer, ManualClock, type EmbeddedZooKeeperServer, type FaultProxy } from '../../src/index.js';
import { DockerEnsemble } from '../../src/container-ensemble.js';
import { LocalEnsemble } from '../../src/ensemble.js';
import { LocalKdc } from '../../src/kdc.js';
import {
  badValue,
  badValuesFor,
  coveredOptions,
  expectRejectsAtOnce,
  exportedCallables,
  interfaceMethodsOf,
  mentionsOf,
  optionCases,
  optionKeysOf,
  policyCases,
  type BadCase,
  type BadValue,
} from '../../../../test/support/validation.js';

const any = (v: unknown): never => v as never;
const bv = badValue;
const pos = (label: string, option: string, b: BadValue, call: () => unknown): BadCase => ({ label, option, value: b.value, call, ...(b.mentions === undefined ? {} : { mentions: b.mentions }) });
const noop = (): void => undefined;
const ms = [...badValuesFor('positive'), bv('2^31 ms', 2 ** 31)];
const record = [...badValuesFor('object')];

const serverSpecs = {
  backend: [...badValuesFor('string'), bv('an unknown backend', 'docker')],
  clock: [...badValuesFor('object'), bv('a clock without now', { setTimeout: noop, clearTimeout: noop }, ['clock.now', 'undefined'])],
  dataDir: badValuesFor('nonEmptyString'),
  image: badValuesFor('nonEmptyString'),
  tickTime: ms,
  minSessionTimeout: ms,
  maxSessionTimeout: ms,
  fourLetterWhitelist: [...badValuesFor('nonEmptyString'), bv('not words', 'ruok, srvr, x!')],
  extendedTypesEnabled: 'boolean',
  reconfigEnabled: 'boolean',
  containerCheckIntervalMs: ms,
  readOnlyMode: 'boolean',
  superPassword: badValuesFor('string'),
  tls: 'boolean',
  sasl: [
    ...badValuesFor('object'),
    bv('a numeric digest password', { digestUsers: { bob: 1 } }, ['sasl.digestUsers.bob', '1']),
    bv('digestUsers as an array', { digestUsers: ['bob'] }, ['sasl.digestUsers', 'array']),
    bv('kerberos without a keytab', { kerberos: { principal: 'zk/localhost@R', krb5Conf: '/k' } }, ['sasl.kerberos.keytab', 'undefined']),
    bv('an empty superUser', { superUser: '' }, ['sasl.superUser', '""']),
    bv('a near-miss key', { digestusers: {} }, ["'digestusers'", "did you mean 'digestUsers'"]),
  ],
  enforceAuth: [...badValuesFor('array'), bv('a number in the list', [1], ['enforceAuth[0]', '1']), bv('empty', [], ['enforceAuth', 'array'])],
  x509Auth: [...badValuesFor('boolean'), bv('true without tls', true)],
  clientPort: [bv('true', true), bv('a number', 2181), bv('null', null), bv('a string', 'no'), bv('false without tls', false)],
  startTimeout: ms,
  heap: [...badValuesFor('nonEmptyString'), bv('not a JVM size', '256 MB')],
  logLevel: [...badValuesFor('string'), bv('lower case', 'warn')],
  config: [...record, bv('a NaN value', { maxClientCnxns: Number.NaN }, ['config.maxClientCnxns', 'NaN']), bv('an object value', { a: {} }, ['config.a', 'object'])],
  systemProperties: [...record, bv('a null value', { 'zookeeper.x': null }, ['systemProperties.zookeeper.x', 'null'])],
  jvmArgs: [...badValuesFor('array'), bv('an empty argument', ['-Xss1m', ''], ['jvmArgs[1]', '""'])],
} as const;
const ensembleSpecs = { ...serverSpecs, size: [...badValuesFor('positive'), bv('256', 256)], clientPort: [...serverSpecs.clientPort, bv('false with tls', false)] } as const;

const embedded = { backend: 'embedded' };
const serverRows = (where: string, call: (o: unknown) => unknown, base: Record<string, unknown>, specs: Record<string, unknown> = serverSpecs): BadCase[] => [
  // `backend` rows without a base backend; the others on the embedded backend (x509Auth/clientPort rows need
  // tls unless they are about it).
  ...optionCases(where, { backend: serverSpecs.backend }, call, { ...base, backend: undefined }),
  ...optionCases(where, Object.fromEntries(Object.entries(specs).filter(([k]) => k !== 'backend')) as never, call, { ...embedded, ...base }),
  ...policyCases(where, 'tickTime', call),
  { label: `${where}: minSessionTimeout above maxSessionTimeout`, option: 'minSessionTimeout', mentions: ['minSessionTimeout', '50000', '40000'], call: () => call({ ...embedded, ...base, minSessionTimeout: 50_000, maxSessionTimeout: 40_000 }) },
];

const clock = new ManualClock();
let proxy: FaultProxy;
let embeddedServer: EmbeddedZooKeeperServer;
beforeAll(async () => {
  proxy = await testkit.startFaultProxy({ host: '127.0.0.1', port: 1 });
  embeddedServer = await testkit.EmbeddedZooKeeperServer.start({ backend: 'embedded' });
});
afterAll(async () => {
  await proxy.close();
  await embeddedServer[Symbol.asyncDispose]();
});

// Handles built by their constructors, never started: nothing listens on port 1 and nothing exists at `never`.
const never = join(tmpdir(), 'zkts-never-started');
const endpoint = { host: '127.0.0.1', bindIp: '127.0.0.1' };
const peer = { id: 1, host: '127.0.0.1', quorumPort: 2, electionPort: 3, clientPort: 1 };
const localServer = new LocalZooKeeperServer({ options: {}, root: never, clientPort: 1, securePort: undefined, tls: undefined });
const containerServer = new ContainerZooKeeperServer({ client: any({}), endpoint, image: 'none', options: {}, plan: { plainPort: true, tls: undefined }, tag: 'never-started' });
const localEnsemble = new LocalEnsemble([localServer], never, {}, [peer]);
const dockerEnsemble = new DockerEnsemble(any({}), endpoint, 'none', {}, 'never-started', any({ id: 'n', name: 'n', base: 0x0a000000, prefix: 24 }), undefined);
const [memberA, memberB] = dockerEnsemble.addServers(dockerEnsemble.peersFor([1, 2]), dockerEnsemble.peersFor([1, 2]));
const kdc = new LocalKdc({ realm: 'ZKTS.TEST', port: 1, dir: never, krb5Conf: join(never, 'krb5.conf'), child: any({}) });

const rows = (where: string, option: string, values: readonly BadValue[], call: (v: unknown) => unknown): BadCase[] =>
  values.map((b) => pos(`${where}: ${option} = ${b.label}`, option, b, () => call(b.value)));
const words = [...badValuesFor('nonEmptyString'), bv('five letters', 'ruoks'), bv('upper case', 'RUOK')];
const lineCounts = [...badValuesFor('positive'), bv('above a million', 1_000_001)];
const ports = [...badValuesFor('positive'), bv('65536', 65_536)];
const counts = [...badValuesFor('positive'), bv('256', 256)];
const peerLists = [
  ...badValuesFor('array'),
  bv('empty', [], ['peers', 'array']),
  bv('id 0', [{ ...peer, id: 0 }], ['peers[0].id', '0']),
  bv('no host', [{ ...peer, host: undefined }], ['peers[0].host', 'undefined']),
  bv('quorumPort 65536', [{ ...peer, quorumPort: 65_536 }], ['peers[0].quorumPort', '65536']),
  bv('a string clientPort', [{ ...peer, clientPort: '1' }], ['peers[0].clientPort', '"1"']),
];
const members = [
  ...badValuesFor('object'),
  bv('a plain object', { connectString: 1 }),
  bv('the embedded server', undefined, ['member', 'must be a member of this ensemble, got the server 127.0.0.1:']),
  bv('a server never started', containerServer, ['member', 'an object']),
];
// `undefined` marks the row that passes the started embedded server (not there yet when the rows are built).
const memberOf = (v: unknown): never => any(v === undefined ? embeddedServer : v);
const principals = [...badValuesFor('nonEmptyString'), bv('two words', 'bob addprinc eve')];

const handles: BadCase[] = [
  ...rows('LocalZooKeeperServer.fourLetter', 'cmd', words, (v) => localServer.fourLetter(any(v))),
  ...rows('LocalZooKeeperServer.logTail', 'lines', lineCounts, (v) => localServer.logTail(any(v))),
  ...rows('LocalZooKeeperServer.waitServing', 'timeout', ms, (v) => localServer.waitServing(any(v))),
  ...rows('LocalZooKeeperServer.setPeers', 'peers', peerLists, (v) => localServer.setPeers(any(v), 1)),
  ...rows('LocalZooKeeperServer.setPeers', 'clientPort', ports, (v) => localServer.setPeers([peer], any(v))),
  ...rows('LocalZooKeeperServer.setPorts', 'clientPort', ports, (v) => localServer.setPorts(any(v), undefined)),
  ...rows('LocalZooKeeperServer.setPorts', 'securePort', ports, (v) => localServer.setPorts(1, any(v))),
  ...rows('ContainerZooKeeperServer.fourLetter', 'cmd', words, (v) => containerServer.fourLetter(any(v))),
  ...rows('ContainerZooKeeperServer.fourLetter', 'timeout', ms, (v) => containerServer.fourLetter('srvr', any(v))),
  ...rows('ContainerZooKeeperServer.logTail', 'lines', lineCounts, (v) => containerServer.logTail(any(v))),
  ...rows('ContainerZooKeeperServer.waitServing', 'timeout', ms, (v) => containerServer.waitServing(any(v))),
  ...rows('EmbeddedZooKeeperServer.fourLetter', 'cmd', words, (v) => embeddedServer.fourLetter(any(v))),
  ...rows('Ensemble.leader', 'timeout', ms, (v) => localEnsemble.leader(any(v))),
  ...rows('Ensemble.addMembers', 'count', counts, (v) => localEnsemble.addMembers(any(v))),
  ...rows('ContainerEnsemble.leader', 'timeout', ms, (v) => dockerEnsemble.leader(any(v))),
  ...rows('ContainerEnsemble.addMembers', 'count', counts, (v) => dockerEnsemble.addMembers(any(v))),
  ...rows('ContainerEnsemble.isolate', 'member', members, (v) => dockerEnsemble.isolate(memberOf(v))),
  ...rows('ContainerEnsemble.pause', 'member', members, (v) => dockerEnsemble.pause(memberOf(v))),
  ...rows('ContainerEnsemble.unpause', 'member', members, (v) => dockerEnsemble.unpause(memberOf(v))),
  { label: 'ContainerEnsemble.partition: groups[0] = a string', option: 'groups[0]', value: 'x', call: () => dockerEnsemble.partition(any('x'), []) },
  { label: 'ContainerEnsemble.partition: groups[1][0] = another server', option: 'groups[1][0]', mentions: ['groups[1][0]', 'got the server 127.0.0.1:'], call: () => dockerEnsemble.partition([memberA as never], [embeddedServer]) },
  { label: 'ContainerEnsemble.partition: a member in two groups', option: 'groups[1][1]', mentions: ['groups[1][1]', 'groups[0] too'], call: () => dockerEnsemble.partition([memberA as never], [memberB as never, memberA as never]) },
  ...rows('Kdc.principal', 'name', principals, (v) => kdc.principal(any(v))),
  ...rows('Kdc.addPrincipal', 'name', principals, (v) => kdc.addPrincipal(any(v))),
  ...rows('Kdc.kinit', 'principal', principals, (v) => kdc.kinit(any(v), '/k')),
  ...rows('Kdc.kinit', 'keytab', badValuesFor('nonEmptyString'), (v) => kdc.kinit('bob', any(v))),
  ...optionCases('Kdc.kinit', { lifetime: [...badValuesFor('nonEmptyString'), bv('not a duration', 'five seconds')] }, (o) => kdc.kinit('bob', '/k', any(o))),
  ...policyCases('Kdc.kinit', 'lifetime', (o) => kdc.kinit('bob', '/k', any(o))),
  ...[...badValuesFor('object'), bv('a numeric value', { KRB5CCNAME: 1 }, ['extra.KRB5CCNAME', '1'])].map((b) => pos(`Kdc.env: extra = ${b.label}`, 'extra', b, () => kdc.env(any(b.value)))),
];

const tables: Record<string, { type: string; cases: BadCase[]; elsewhere?: string[] }> = {
  startZooKeeper: { type: 'ServerOptions', cases: serverRows('startZooKeeper', (o) => testkit.startZooKeeper(any(o)), {}) },
  startEnsemble: { type: 'EnsembleOptions', cases: serverRows('startEnsemble', (o) => testkit.startEnsemble(any(o)), { size: 3 }, ensembleSpecs) },
  'EmbeddedZooKeeperServer.start': { type: 'ServerOptions', cases: serverRows('EmbeddedZooKeeperServer.start', (o) => testkit.EmbeddedZooKeeperServer.start(any(o)), {}) },
  renderServerJaas: { type: 'ServerOptions', cases: serverRows('renderServerJaas', (o) => testkit.renderServerJaas(any(o)), {}) },
  // resolveBackend reads `backend` alone (startZooKeeper checks the rest before calling it).
  resolveBackend: {
    type: 'ServerOptions',
    cases: [...optionCases('resolveBackend', { backend: serverSpecs.backend }, (o) => testkit.resolveBackend(any(o))), { label: 'resolveBackend: options = null', option: 'options', value: null, call: () => testkit.resolveBackend(any(null)) }],
    elsewhere: Object.keys(serverSpecs).filter((k) => k !== 'backend'),
  },
  startKdc: {
    type: 'KdcOptions',
    cases: [
      ...optionCases('startKdc', { realm: [...badValuesFor('nonEmptyString'), bv('two words', 'ZKTS TEST')], maxLife: [...badValuesFor('nonEmptyString'), bv('not a duration', 'one hour')] }, (o) => testkit.startKdc(any(o))),
      ...policyCases('startKdc', 'maxLife', (o) => testkit.startKdc(any(o))),
    ],
  },
};

const targetsOf = (name: string): BadValue[] => [
  ...badValuesFor('object'),
  bv('no host', { port: 2181 }, [`${name}.host`, 'undefined']),
  bv('port 0', { host: 'h', port: 0 }, [`${name}.port`, '0']),
  bv('port 65536', { host: 'h', port: 65_536 }, [`${name}.port`, '65536']),
  bv('a string port', { host: 'h', port: '2181' }, [`${name}.port`, '"2181"']),
];
const targets = [
  ...targetsOf('target'),
  bv('a zero timeout', { host: 'h', port: 1, timeout: 0 }, ['target.timeout', '0']),
  bv('tls without a key', { host: 'h', port: 1, tls: { ca: 'c', cert: 'c' } }, ['target.tls.key', 'undefined']),
];
const functions: BadCase[] = [
  ...targets.map((b) => pos(`fourLetter: target = ${b.label}`, 'target', b, () => testkit.fourLetter(any(b.value), 'ruok'))),
  ...[...badValuesFor('nonEmptyString'), bv('five letters', 'ruoks'), bv('upper case', 'RUOK')].map((b) => pos(`fourLetter: cmd = ${b.label}`, 'cmd', b, () => testkit.fourLetter({ host: 'h', port: 1 }, any(b.value)))),
  ...targetsOf('upstream').map((b) => pos(`startFaultProxy: upstream = ${b.label}`, 'upstream', b, () => testkit.startFaultProxy(any(b.value)))),
  ...badValuesFor('string').map((b) => pos(`parseMntr: ${b.label}`, 'mntr', b, () => testkit.parseMntr(any(b.value)))),
  ...badValuesFor('string').map((b) => pos(`modeOf: ${b.label}`, 'srvr', b, () => testkit.modeOf(any(b.value)))),
  ...[...badValuesFor('positive'), bv('1001', 1001)].map((b) => pos(`freePorts: count = ${b.label}`, 'count', b, () => testkit.freePorts(any(b.value)))),
  ...badValuesFor('nonEmptyString').map((b) => pos(`freePorts: host = ${b.label}`, 'host', b, () => testkit.freePorts(1, any(b.value)))),
  ...badValuesFor('nonEmptyString').map((b) => pos(`freePort: host = ${b.label}`, 'host', b, () => testkit.freePort(any(b.value)))),
  ...badValuesFor('nonEmptyString').map((b) => pos(`digestCredential: user = ${b.label}`, 'user', b, () => testkit.digestCredential(any(b.value), 'p'))),
  ...badValuesFor('string').map((b) => pos(`digestCredential: password = ${b.label}`, 'password', b, () => testkit.digestCredential('u', any(b.value)))),
  ...[...badValuesFor('nonEmptyString'), bv('a slash', 'a/b')].map((b) => pos(`issueClientCertificate: commonName = ${b.label}`, 'commonName', b, () => testkit.issueClientCertificate(any(b.value)))),
  ...[...badValuesFor('object'), bv('no password', { username: 'u' }, ['client.password', 'undefined']), bv('a numeric keytab', { principal: 'p', keytab: 1 }, ['client.keytab', '1'])].map((b) =>
    pos(`renderClientJaas: client = ${b.label}`, 'client', b, () => testkit.renderClientJaas(any(b.value)))),
  ...optionCases('reapContainers', { run: badValuesFor('nonEmptyString') }, (o) => testkit.reapContainers(any(o))),
  ...policyCases('reapContainers', 'run', (o) => testkit.reapContainers(any(o))),
  ...badValuesFor('object').map((b) => pos(`probeJavaRuntime: env = ${b.label}`, 'env', b, () => testkit.probeJavaRuntime(any(b.value)))),
  ...badValuesFor('nonEmptyString').map((b) => pos(`probeJavaRuntime: debianDir = ${b.label}`, 'debianDir', b, () => testkit.probeJavaRuntime({}, any(b.value)))),
  ...[bv('a string', 'x'), bv('null', null), bv('an array', [1]), bv('a Uint8Array', new Uint8Array(4), ['chunk', 'bytes'])].map((b) =>
    pos(`FrameCutter.push: chunk = ${b.label}`, 'chunk', b, () => new testkit.FrameCutter().push(any(b.value)))),
  ...badValuesFor('number').map((b) => pos(`new ManualClock: start = ${b.label}`, 'start', b, () => new ManualClock(any(b.value)))),
  ...badValuesFor('function').map((b) => pos(`clock.setTimeout: callback = ${b.label}`, 'callback', b, () => clock.setTimeout(any(b.value), 1))),
  ...badValuesFor('number').map((b) => pos(`clock.setTimeout: ms = ${b.label}`, 'ms', b, () => clock.setTimeout(noop, any(b.value)))),
  ...[...badValuesFor('number'), bv('-1', -1)].map((b) => pos(`clock.advance: ms = ${b.label}`, 'ms', b, () => clock.advance(any(b.value)))),
  ...[...badValuesFor('number'), bv('-1', -1)].map((b) => pos(`clock.advanceAsync: ms = ${b.label}`, 'ms', b, () => clock.advanceAsync(any(b.value)))),
  ...badValuesFor('function').map((b) => pos(`clock.advanceAsync: settle = ${b.label}`, 'settle', b, () => clock.advanceAsync(1, any(b.value)))),
  ...[...badValuesFor('number'), bv('-1', -1), bv('2^31', 2 ** 31)].map((b) => pos(`proxy.delay: ms = ${b.label}`, 'ms', b, () => proxy.delay(any(b.value)))),
];

const allCases = [...Object.values(tables).flatMap((t) => t.cases), ...functions, ...handles];

describe('every bad input is refused at once with InvalidOptionError naming it and showing the value', () => {
  it.each(allCases.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      await expectRejectsAtOnce(c.call, { errorClass: InvalidOptionError, code: 'ZKTS_TESTKIT_INVALID_OPTION', mentions: mentionsOf(c) });
    } finally {
      warn.mockRestore();
    }
  });

  it('a bad backend in the environment is refused by the variable name', async () => {
    vi.stubEnv(testkit.BACKEND_ENV, 'docker');
    try {
      await expectRejectsAtOnce(() => testkit.startZooKeeper(), { errorClass: InvalidOptionError, mentions: [testkit.BACKEND_ENV, '"docker"'], style: 'async' });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('the unknown-key policy (a copy of @zkts/protocol\'s)', () => {
  it('warns once (ZKTS_UNKNOWN_OPTION) for a key that is no near miss', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 2; i++) expect(testkit.renderServerJaas(any({ somethingElseEntirely: 1 }))).toBeUndefined();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toContain("unknown option 'somethingElseEntirely' of renderServerJaas");
      expect(warn.mock.calls[0]?.[1]).toEqual({ code: testkit.UNKNOWN_OPTION_WARNING });
      expect(testkit.UNKNOWN_OPTION_WARNING).toBe('ZKTS_UNKNOWN_OPTION');
    } finally {
      warn.mockRestore();
    }
  });

  it('every ServerOptions and EnsembleOptions key is known (no warning for any of them)', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const keys = (type: string): Record<string, unknown> => Object.fromEntries(optionKeysOf('@zkts/testkit', type).map((k) => [k, undefined]));
      testkit.renderServerJaas(any(keys('ServerOptions')));
      // Past the checks, the embedded backend refuses an ensemble: proof the options went through them.
      await expect(testkit.startEnsemble(any({ ...keys('EnsembleOptions'), size: 3, backend: 'embedded' }))).rejects.toThrow(testkit.UnsupportedOptionError);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the tables cover the whole surface', () => {
  it.each(Object.entries(tables))('%s covers every key of its options type', (_name, t) => {
    const covered = new Set([...coveredOptions(t.cases), ...(t.elsewhere ?? [])]);
    expect(optionKeysOf('@zkts/testkit', t.type).filter((k) => !covered.has(k))).toEqual([]);
  });

  it('the sasl rows cover every key of SaslServerOptions, the target rows every key of FourLetterTarget', () => {
    const mentioned = allCases.flatMap((c) => c.mentions ?? []);
    expect(optionKeysOf('@zkts/testkit', 'SaslServerOptions').filter((k) => !mentioned.some((m) => m.startsWith(`sasl.${k}`)))).toEqual([]);
    expect(optionKeysOf('@zkts/testkit', 'FourLetterTarget').filter((k) => !mentioned.some((m) => m.startsWith(`target.${k}`)))).toEqual([]);
  });

  // Callables whose every input is valid or that take none: the error classes (any message), the probes and
  // listings. LocalZooKeeperServer and ContainerZooKeeperServer are made by startZooKeeper/startEnsemble from
  // checked options; their constructors take an internal init object.
  const TAKES_NO_CHECKED_INPUT = [
    'InvalidOptionError', 'ServerStartError', 'UnsupportedOptionError', 'ZooKeeperNotInstalledError',
    'dockerUnavailableReason', 'javaRuntime', 'kdcUnavailableReason', 'listTaggedContainers', 'listTaggedProcesses',
    'partitionsUnavailableReason', 'reapOrphans', 'LocalZooKeeperServer', 'ContainerZooKeeperServer',
  ];
  const covered = (name: string): boolean => Object.keys(tables).some((t) => t === name || t.startsWith(`${name}.`)) || allCases.some((c) => c.label.startsWith(`${name}:`) || c.label.startsWith(`${name}.`) || c.label.startsWith(`new ${name}:`));

  it('every exported function and class has rows (or is listed as taking no checked input)', () => {
    const missing = exportedCallables('@zkts/testkit').map((c) => c.name).filter((n) => !TAKES_NO_CHECKED_INPUT.includes(n) && !covered(n));
    expect(missing).toEqual([]);
  });

  // The handles the starters return, by exported type (interface or class), and the label prefixes of the rows
  // of each implementation. Every parameter of every method of these types needs rows (option = the parameter,
  // or a member / element of it) under every prefix.
  const HANDLES: Record<string, readonly string[]> = {
    ZooKeeperServer: ['LocalZooKeeperServer', 'ContainerZooKeeperServer', 'EmbeddedZooKeeperServer'],
    LocalZooKeeperServer: ['LocalZooKeeperServer'],
    ContainerZooKeeperServer: ['ContainerZooKeeperServer'],
    EmbeddedZooKeeperServer: ['EmbeddedZooKeeperServer'],
    Ensemble: ['Ensemble', 'ContainerEnsemble'],
    ContainerEnsemble: ['ContainerEnsemble'],
    Kdc: ['Kdc'],
    FaultProxy: ['proxy'],
    ManualClock: ['clock'],
    FrameCutter: ['FrameCutter'],
  };
  // Parameters every value is right for: clearTimeout takes any handle (an unknown one is a no-op, as Node's).
  const TAKES_ANY_VALUE = ['clock.clearTimeout(timer)'];

  it.each(Object.keys(HANDLES))('every parameter of every %s method has rows', (type) => {
    const missing: string[] = [];
    for (const { name, parameters } of interfaceMethodsOf('@zkts/testkit', type)) {
      for (const prefix of HANDLES[type] ?? []) {
        for (const p of parameters) {
          const rowsFor = allCases.filter((c) => c.label.startsWith(`${prefix}.${name}:`) && (c.option === p || c.option.startsWith(`${p}.`) || c.option.startsWith(`${p}[`)));
          if (rowsFor.length === 0 && !TAKES_ANY_VALUE.includes(`${prefix}.${name}(${p})`)) missing.push(`${prefix}.${name}(${p})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('every class of the testkit implementing a handle type is behind a row prefix of that type', () => {
    // The row prefix each implementation's rows use; a new implementation (another backend) must be added here
    // with its rows, or this fails.
    const PREFIX_OF: Record<string, string> = {
      LocalZooKeeperServer: 'LocalZooKeeperServer', ContainerZooKeeperServer: 'ContainerZooKeeperServer', EmbeddedZooKeeperServer: 'EmbeddedZooKeeperServer',
      LocalEnsemble: 'Ensemble', DockerEnsemble: 'ContainerEnsemble', LocalKdc: 'Kdc', Proxy: 'proxy',
    };
    const src = new URL('../../src/', import.meta.url);
    const unlisted: string[] = [];
    for (const file of readdirSync(src).filter((f) => f.endsWith('.ts'))) {
      for (const m of readFileSync(new URL(file, src), 'utf8').matchAll(/class (\w+) implements ([\w, ]+)\{/g)) {
        const implemented = (m[2] ?? '').split(',').map((t) => t.trim()).filter((t) => t in HANDLES);
        for (const type of implemented) if (!(HANDLES[type] ?? []).includes(PREFIX_OF[m[1] ?? ''] ?? '?')) unlisted.push(`${m[1] ?? ''} implements ${type}`);
      }
    }
    expect(unlisted).toEqual([]);
  });
});
