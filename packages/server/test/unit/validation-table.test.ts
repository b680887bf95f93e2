// Every door of @zkts/server checks what it is given: each key of ServerOptions (and of its tls object), bad
// values (wrong type, NaN, fractions, negative, out of range, empty, unknown words, malformed clocks/loggers,
// near-miss keys, a non-object options argument) make startServer reject within one event-loop turn, before
// it listens or opens a file, with InvalidArgumentError naming the option and showing the value. The option keys
// and exported callables come from the sources, so a new one without rows here fails the coverage tests.
import { describe, expect, it, vi } from 'vitest';

import { InvalidArgumentError } from '@zkts/protocol/codec';
import { startServer, type ServerOptions } from '@zkts/server';

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
  type BadCase,
} from '../../../../test/support/validation.js';

const any = (v: unknown): never => v as never;
const bv = badValue;
const ms = [...badValuesFor('positive'), bv('2^31 ms', 2 ** 31)];
const noop = (): void => undefined;
const PEM = '-----BEGIN X-----\n-----END X-----\n';

const serverSpecs = {
  port: [...badValuesFor('nonNegative'), bv('65536', 65_536)],
  host: badValuesFor('nonEmptyString'),
  tickTime: ms,
  minSessionTimeout: ms,
  maxSessionTimeout: ms,
  maxBuffer: [...badValuesFor('positive'), bv('2^31', 2 ** 31)],
  superDigest: [...badValuesFor('nonEmptyString'), bv('without a user', 'abc')],
  extendedTypesEnabled: 'boolean',
  containerCheckIntervalMs: ms,
  sessionlessConnectionTimeout: ms,
  clock: [
    ...badValuesFor('object'),
    bv('a clock without now', { setTimeout: noop, clearTimeout: noop }, ['clock.now', 'undefined']),
    bv('a clock with a string setTimeout', { now: noop, setTimeout: 'x', clearTimeout: noop }, ['clock.setTimeout', '"x"']),
  ],
  logger: [...badValuesFor('object'), bv('a logger with a non-function warn', { debug: noop, info: noop, warn: 'x' }, ['logger.warn', '"x"'])],
  saslUsers: [...badValuesFor('object'), bv('a non-string password', { bob: 1 }, ['saslUsers.bob', '1']), bv('an empty user name', { '': 'p' }, ['saslUsers', 'object'])],
  saslSuperUser: badValuesFor('nonEmptyString'),
  enforceAuth: [
    bv('a string', 'sasl'), bv('a number', 1), bv('null', null), bv('an object', {}),
    bv('a list with a number', [1], ['enforceAuth[0]', '1']), bv('a list with an empty name', ['sasl', ''], ['enforceAuth[1]', '""']),
  ],
  fourLetterWords: [
    ...badValuesFor('array'),
    bv('an unknown word', ['ruok', 'nope'], ['fourLetterWords[1]', '"nope"']),
    bv('a word list as one string', ['ruok,srvr'], ['fourLetterWords[0]', '"ruok,srvr"']),
    bv('an empty word', [''], ['fourLetterWords[0]', '""']),
    bv('a number in the list', [1], ['fourLetterWords[0]', '1']),
  ],
  tls: [
    ...badValuesFor('object'),
    bv('no key', { cert: PEM }, ['tls.key', 'undefined']),
    bv('a numeric cert', { key: PEM, cert: 1 }, ['tls.cert', '1']),
    bv('an empty ca list', { key: PEM, cert: PEM, ca: [] }, ['tls.ca', 'array']),
    bv('a ca list with a number', { key: PEM, cert: PEM, ca: [PEM, 2] }, ['tls.ca', 'array']),
    bv('an unknown clientAuth', { key: PEM, cert: PEM, clientAuth: 'required' }, ['tls.clientAuth', '"required"']),
    bv('a negative securePort', { key: PEM, cert: PEM, securePort: -1 }, ['tls.securePort', '-1']),
    bv('a fractional securePort', { key: PEM, cert: PEM, securePort: 1.5 }, ['tls.securePort', '1.5']),
    bv('a near-miss key', { key: PEM, cert: PEM, clientauth: 'need' }, ["'clientauth'", "did you mean 'clientAuth'"]),
  ],
  dataDir: badValuesFor('nonEmptyString'),
  fsync: 'boolean',
  snapCount: [...badValuesFor('integer'), bv('1', 1), bv('0', 0), bv('-1', -1)],
  preAllocSize: [...badValuesFor('nonNegative'), bv('2^21 + 1 KiB', 2 ** 21 + 1)],
} as const;

const start = (o: unknown): Promise<unknown> => startServer(any(o));
const cases: BadCase[] = [
  ...optionCases('startServer', serverSpecs, start),
  ...policyCases('startServer', 'tickTime', start),
  ...policyCases('startServer', 'maxSessionTimeout', start),
  { label: 'startServer: options = an array', option: 'options', value: [], call: () => start([]) },
  { label: 'startServer: minSessionTimeout above maxSessionTimeout', option: 'minSessionTimeout', mentions: ['minSessionTimeout', '5000', '4000'], call: () => start({ minSessionTimeout: 5000, maxSessionTimeout: 4000 }) },
];

describe('every bad startServer option is refused at once with InvalidArgumentError naming it and showing the value', () => {
  it.each(cases.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      await expectRejectsAtOnce(c.call, { errorClass: InvalidArgumentError, code: 'INVALID_ARGUMENT', mentions: mentionsOf(c), style: 'async' });
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the unknown-key policy', () => {
  it('warns once (ZKTS_UNKNOWN_OPTION) for a key that is no near miss, and still starts', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 2; i++) {
        await using server = await startServer(any({ somethingElseEntirely: 1 }));
        expect(server.port).toBeGreaterThan(0);
      }
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toContain("unknown option 'somethingElseEntirely' of startServer");
      expect(warn.mock.calls[0]?.[1]).toEqual({ code: 'ZKTS_UNKNOWN_OPTION' });
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the table covers the whole surface', () => {
  it('covers every key of ServerOptions', () => {
    const covered = new Set(coveredOptions(cases));
    expect(optionKeysOf('@zkts/server', 'ServerOptions').filter((k) => !covered.has(k))).toEqual([]);
  });

  it('covers every key of the tls object (TlsOptions)', () => {
    const tlsRows = serverSpecs.tls.flatMap((b) => (typeof b.value === 'object' && b.value !== null ? Object.keys(b.value) : []));
    const keys = ['key', 'cert', 'ca', 'clientAuth', 'securePort'];
    expect(keys.filter((k) => !serverSpecs.tls.some((b) => b.mentions?.some((m) => m === `tls.${k}`)))).toEqual([]);
    expect(tlsRows.length).toBeGreaterThan(0);
  });

  it('every ServerOptions key is one startServer knows (no warning for any of them)', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const options = Object.fromEntries(optionKeysOf('@zkts/server', 'ServerOptions').map((k) => [k, undefined])) as ServerOptions;
      await using server = await startServer(options);
      expect(server.port).toBeGreaterThan(0);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  // Exports that take no input a caller could get wrong: none besides startServer is callable today (the
  // clock and logger objects, systemClock and silentLogger, are values).
  const TAKES_NO_CHECKED_INPUT: string[] = [];
  it('every exported function and class has rows (or is listed as taking no checked input)', () => {
    const missing = exportedCallables('@zkts/server')
      .map((c) => c.name)
      .filter((n) => !TAKES_NO_CHECKED_INPUT.includes(n) && !cases.some((c) => c.label.startsWith(`${n}:`)));
    expect(missing).toEqual([]);
  });
});
