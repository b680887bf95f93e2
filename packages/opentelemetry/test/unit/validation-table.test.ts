// Every door of @zkts/opentelemetry checks what it is given, like the rest of the project: instrumentZkts refuses
// a bad provider, a non-object options argument and a near miss of an option key AT ONCE with
// InvalidArgumentError naming the option and showing the value, before anything subscribes; an unknown key
// that is no near miss warns once. correlateLogger refuses what is no logger. The coverage tests read the
// sources: every key of InstrumentZktsOptions and every exported function has rows.
import { tracingChannel } from 'node:diagnostics_channel';

import { InvalidArgumentError } from '@zkts/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';

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
import { correlateLogger, instrumentZkts } from '../../src/index.js';

const any = (v: unknown): never => v as never;
const bv = badValue;

const optionSpecs = {
  tracerProvider: [...badValuesFor('object'), bv('an object without getTracer', { getMeter: () => undefined }, ['tracerProvider', 'getTracer'])],
  meterProvider: [...badValuesFor('object'), bv('an object without getMeter', { getTracer: () => undefined }, ['meterProvider', 'getMeter'])],
} as const;

const instrumentCases: BadCase[] = [
  ...optionCases('instrumentZkts', optionSpecs, (o) => instrumentZkts(any(o))),
  ...policyCases('instrumentZkts', 'tracerProvider', (o) => instrumentZkts(any(o))),
  { label: 'instrumentZkts: options = a string', option: 'options', value: 'x', call: () => instrumentZkts(any('x')) },
];

const loggerCases: BadCase[] = [
  ...[bv('a string', 'x'), bv('a number', 1), bv('null', null), bv('undefined', undefined), bv('an array', []), bv('a function', () => undefined)].map(
    (b): BadCase => ({ label: `correlateLogger: logger = ${b.label}`, option: 'logger', value: b.value, call: () => correlateLogger(any(b.value)) }),
  ),
  { label: 'correlateLogger: logger.warn = a string', option: 'logger.warn', value: 'x', call: () => correlateLogger(any({ info: () => undefined, warn: 'x' })) },
];

describe('instrumentZkts', () => {
  it.each(instrumentCases.map((c) => [c.label, c] as const))('refuses %s at once, before subscribing', async (_label, c) => {
    await expectRejectsAtOnce(c.call, { errorClass: InvalidArgumentError, code: 'INVALID_ARGUMENT', mentions: mentionsOf(c), style: 'sync' });
    expect(tracingChannel('zkts:request').hasSubscribers).toBe(false);
  });

  describe('an unknown key that is no near miss', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('warns once (ZKTS_UNKNOWN_OPTION) and goes on', () => {
      const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      for (let i = 0; i < 2; i++) instrumentZkts(any({ somethingElseEntirely: 1 })).disable();
      const ours = warn.mock.calls.filter((args) => String(args[0]).includes("'somethingElseEntirely'"));
      expect(ours).toHaveLength(1);
      expect(ours[0]?.[1]).toMatchObject({ code: 'ZKTS_UNKNOWN_OPTION' });
    });
  });
});

describe('correlateLogger', () => {
  it.each(loggerCases.map((c) => [c.label, c] as const))('refuses %s at once', async (_label, c) => {
    await expectRejectsAtOnce(c.call, { errorClass: InvalidArgumentError, code: 'INVALID_ARGUMENT', mentions: mentionsOf(c), style: 'sync' });
  });
});

describe('the table covers the sources', () => {
  it('every key of InstrumentZktsOptions has rows', () => {
    const covered = coveredOptions(instrumentCases);
    expect(covered).toEqual(expect.arrayContaining(optionKeysOf('@zkts/opentelemetry', 'InstrumentZktsOptions')));
  }, 60_000);

  it('every exported function has rows', () => {
    const doors = new Set(['instrumentZkts', 'correlateLogger']);
    expect(exportedCallables('@zkts/opentelemetry').map((c) => c.name).filter((n) => !doors.has(n))).toEqual([]);
  }, 60_000);
});
