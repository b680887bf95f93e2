// The unknown-option policy (checkOptionKeys) and the shared validation harness's own behaviour: a harness
// that passed every call would make every table green, so it is tested on calls that must fail it.
import { afterEach, describe, expect, it, vi } from 'vitest';

import { InvalidArgumentError, UNKNOWN_OPTION_WARNING, checkOptionKeys, describeValue } from '../../src/index.js';
import {
  badValuesFor,
  expectRejectsAtOnce,
  exportedCallables,
  optionKeysOf,
  publicMethodsOf,
  shownValue,
} from '../../../../test/support/validation.js';

const known = ['sessionTimeout', 'connectTimeout', 'ttl', 'mode'];

describe('checkOptionKeys', () => {
  afterEach(() => vi.restoreAllMocks());

  it('passes undefined and objects with only known keys', () => {
    expect(() => checkOptionKeys(undefined, known, 'f')).not.toThrow();
    expect(() => checkOptionKeys({ ttl: 1, mode: 'x' }, known, 'f')).not.toThrow();
  });

  it.each([null, 1, 'x', [1], () => undefined])('refuses a non-object (%s)', (value) => {
    expect(() => checkOptionKeys(value, known, 'createClient')).toThrow(InvalidArgumentError);
    expect(() => checkOptionKeys(value, known, 'createClient')).toThrow(/createClient options must be an object/);
  });

  it.each([
    ['sessionTimout', 'sessionTimeout'],
    ['SessionTimeout', 'sessionTimeout'],
    ['SESSIONTIMEOUT', 'sessionTimeout'],
    ['conectTimeot', 'connectTimeout'],
    ['tl', 'ttl'],
    ['mdoe', 'mode'],
  ])('refuses the near miss %s with a suggestion of %s', (key, suggestion) => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    expect(() => checkOptionKeys({ [key]: 1 }, known, 'createClient')).toThrow(
      `unknown option '${key}' of createClient: did you mean '${suggestion}'?`,
    );
    expect(emit).not.toHaveBeenCalled();
  });

  it('warns once per (function, key) for any other unknown key', () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    checkOptionKeys({ retryPolicyForLocks: 1 }, known, 'once-test');
    checkOptionKeys({ retryPolicyForLocks: 2 }, known, 'once-test');
    expect(emit).toHaveBeenCalledTimes(1);
    expect(emit.mock.calls[0]?.[0]).toContain("unknown option 'retryPolicyForLocks' of once-test");
    expect(emit.mock.calls[0]?.[1]).toEqual({ code: UNKNOWN_OPTION_WARNING });
    checkOptionKeys({ retryPolicyForLocks: 2 }, known, 'other-test');
    expect(emit).toHaveBeenCalledTimes(2);
  });

  it('does not treat a short unrelated key as a near miss of a short known key', () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    expect(() => checkOptionKeys({ xy: 1 }, ['ab'], 'short-test')).not.toThrow();
    expect(emit).toHaveBeenCalledTimes(1);
  });

  it('describeValue shows what the harness expects to see', () => {
    for (const v of [Number.NaN, -1, 2 ** 60, 1.5, '', 'x'.repeat(100), true, null, undefined, 1n, () => 1, [1], { a: 1 }, new Uint8Array(2)]) {
      expect(describeValue(v)).toContain(shownValue(v));
    }
  });
});

describe('the validation harness', () => {
  const bad = (): never => {
    throw new InvalidArgumentError('port', 'got -1');
  };

  it('accepts a synchronous throw and a promise rejected within the turn', async () => {
    await expectRejectsAtOnce(bad, { errorClass: InvalidArgumentError, code: 'INVALID_ARGUMENT', mentions: ['port', '-1'] });
    await expectRejectsAtOnce(async () => { await Promise.resolve(); bad(); }, { errorClass: InvalidArgumentError, style: 'async' });
  });

  it('fails a pending promise, a resolved one, the wrong class, code, message or style', async () => {
    const never = (): Promise<void> => new Promise(() => undefined);
    // Rejects two event-loop turns after the call, whatever the machine's load: a timer of a few ms could come due
    // before the harness's one turn on a busy machine, and the case would then test nothing.
    const later = (): Promise<void> => new Promise((_, reject) => setImmediate(() => setImmediate(() => reject(new InvalidArgumentError('a', 'b')))));
    await expect(expectRejectsAtOnce(never, { errorClass: InvalidArgumentError })).rejects.toThrow(/still pending/);
    await expect(expectRejectsAtOnce(later, { errorClass: InvalidArgumentError })).rejects.toThrow(/still pending/);
    await expect(expectRejectsAtOnce(() => Promise.resolve(1), { errorClass: InvalidArgumentError })).rejects.toThrow(/resolved/);
    await expect(expectRejectsAtOnce(() => 1, { errorClass: InvalidArgumentError })).rejects.toThrow(/returned/);
    await expect(expectRejectsAtOnce(() => { throw new RangeError('x'); }, { errorClass: InvalidArgumentError })).rejects.toThrow(/expected InvalidArgumentError/);
    await expect(expectRejectsAtOnce(bad, { errorClass: InvalidArgumentError, code: 'NOPE' })).rejects.toThrow(/code/);
    await expect(expectRejectsAtOnce(bad, { errorClass: InvalidArgumentError, mentions: ['timeout'] })).rejects.toThrow(/mention/);
    await expect(expectRejectsAtOnce(bad, { errorClass: InvalidArgumentError, style: 'async' })).rejects.toThrow(/synchronously/);
    await expect(expectRejectsAtOnce(() => Promise.reject(new InvalidArgumentError('a', 'b')), { errorClass: InvalidArgumentError, style: 'sync' })).rejects.toThrow(/synchronous/);
  });

  it('badValuesFor never offers undefined and covers NaN, negatives and huge numbers', () => {
    const values = badValuesFor('positive').map((b) => b.value);
    expect(values).not.toContain(undefined);
    expect(values).toEqual(expect.arrayContaining([Number.NaN, -1, 0, 2 ** 60, 'x']));
    expect(badValuesFor('nonEmptyString').map((b) => b.value)).toContain('');
  });

  it('reads option keys, exported callables and public methods from the sources', () => {
    expect(optionKeysOf('@zkts/protocol', 'ClientOptions')).toEqual(expect.arrayContaining(['sessionTimeout', 'connectTimeout']));
    const callables = exportedCallables('@zkts/protocol');
    expect(callables).toEqual(expect.arrayContaining([{ name: 'createClient', kind: 'function' }, { name: 'ZkClient', kind: 'class' }]));
    expect(callables.map((c) => c.name)).not.toContain('ClientOptions');
    const methods = publicMethodsOf('@zkts/protocol', 'ZkClient');
    expect(methods).toEqual(expect.arrayContaining(['create', 'getData', 'close']));
  });
});
