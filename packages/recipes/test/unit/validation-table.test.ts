// Every door of @zkts/recipes checks what it is given: each constructor, function and method of the table refuses
// each bad positional argument and each bad option, and an options object that is not one, AT ONCE (a throw, or a
// promise rejected within one event-loop turn) with RecipeArgumentError naming the argument and showing the value;
// a near miss of an option key is refused with a suggestion and any other unknown key warns once. The table's
// coverage is checked against the sources: every option of an options type, every exported callable and every
// public method that takes arguments has its row.
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  expectRejectsAtOnce, exportedCallables, mentionsOf, optionKeysOf, publicMethodsOf, type BadCase,
} from '../../../../test/support/validation.js';
import * as recipes from '../../src/index.js';
import { RecipeArgumentError } from '../../src/index.js';
import type { Door } from './validation/bad-values.js';
import { dataDoors } from './validation/doors-data.js';
import { discoveryDoors } from './validation/doors-discovery.js';
import { coordinationDoors } from './validation/doors-coordination.js';
import { layoutDoors } from './validation/doors-layouts.js';
import { quotaDoors } from './validation/doors-quotas.js';

const doors: readonly Door[] = [...coordinationDoors, ...dataDoors, ...discoveryDoors, ...quotaDoors, ...layoutDoors];
const notAnObject = [
  { label: 'a number', value: 5 }, { label: 'a string', value: 'x' }, { label: 'null', value: null }, { label: 'an array', value: [] },
  { label: 'a function', value: () => undefined },
];

function casesOf(door: Door): BadCase[] {
  const cases: BadCase[] = [];
  for (const [name, values] of Object.entries(door.args ?? {})) {
    for (const b of values) {
      cases.push({ label: `${name} = ${b.label}`, option: name, value: b.value, ...(b.mentions && { mentions: b.mentions }), call: () => door.call({ [name]: b.value }, door.base) });
    }
  }
  for (const [key, values] of Object.entries(door.options ?? {})) {
    for (const b of values) {
      cases.push({ label: `${key} = ${b.label}`, option: key, value: b.value, ...(b.mentions && { mentions: b.mentions }), call: () => door.call({}, { ...door.base, [key]: b.value }) });
    }
  }
  if (door.options !== undefined) {
    const name = door.optionsName ?? 'options';
    for (const b of notAnObject) cases.push({ label: `${name} = ${b.label}`, option: name, value: b.value, call: () => door.call({}, b.value) });
  }
  return cases;
}

describe.each(doors.map((d) => [d.door, d] as const))('%s', (_, door) => {
  it.each(casesOf(door).map((c) => [c.label, c] as const))('refuses %s at once', async (_label, c) => {
    await expectRejectsAtOnce(c.call, { errorClass: RecipeArgumentError, code: 'INVALID_USE', mentions: mentionsOf(c), style: door.style });
  });

  const first = Object.keys(door.options ?? {}).find((k) => !k.includes('.'));
  if (first !== undefined) {
    it(`refuses a near miss of '${first}' with a suggestion`, async () => {
      const typo = first.toUpperCase() === first ? `${first}x` : first.toUpperCase();
      await expectRejectsAtOnce(() => door.call({}, { ...door.base, [typo]: 1 }), {
        errorClass: RecipeArgumentError, code: 'INVALID_USE', mentions: [`'${typo}'`, `did you mean '${first}'`], style: door.style,
      });
    });
  }
});

describe('unknown option keys that are no near miss', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each(doors.filter((d) => d.style === 'sync' && d.options !== undefined && !d.door.includes('.')).map((d) => [d.door, d] as const))(
    '%s: warns once (ZKTS_UNKNOWN_OPTION) and goes on',
    (_, door) => {
      const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      for (let i = 0; i < 2; i++) expect(() => door.call({}, { ...door.base, somethingElseEntirely: 1 })).not.toThrow();
      const ours = warn.mock.calls.filter((args) => String(args[0]).includes("'somethingElseEntirely'"));
      expect(ours).toHaveLength(1);
      expect(ours[0]?.[1]).toMatchObject({ code: 'ZKTS_UNKNOWN_OPTION' });
    },
  );
});

describe('the table covers the sources', () => {
  it('every key of each options type has rows', () => {
    for (const door of doors.filter((d) => d.optionsType !== undefined)) {
      expect(Object.keys(door.options ?? {}), `${door.door} (${door.optionsType})`).toEqual(expect.arrayContaining(optionKeysOf('@zkts/recipes', door.optionsType as string)));
    }
    expect(optionKeysOf('@zkts/recipes', 'WaitOptions')).toEqual(['signal', 'timeout']);
  }, 60_000);

  // What takes no argument of its own (errors take a message; RoundRobinStrategy nothing), or is made only by
  // another door (ReadLock/WriteLock by ReadWriteLock, whose acquire is Mutex's; CuratorQueueBase is abstract).
  const NO_DOOR = new Set([
    'RecipeError', 'LockNotHeldError', 'LockBusyError', 'LockUpgradeError', 'LockLostError', 'RecipeArgumentError', 'RecipeClosedError',
    'CounterOutcomeUnknownError', 'OutcomeUnknownError', 'DataFormatError', 'InstanceFormatError', 'ServiceNotRegisteredError',
    'QueueItemCorruptError', 'CacheDecodeError', 'CacheReadError', 'QuotaConflictError', 'QuotaFormatError', 'CompressedDataError', 'DecompressedTooLargeError', 'QueueEmptyError', 'RoundRobinStrategy', 'ReadLock', 'WriteLock', 'CuratorQueueBase',
  ]);

  it('every exported constructor and function has a door', () => {
    const names = new Set(doors.map((d) => d.door.split('.')[0]));
    const missing = exportedCallables('@zkts/recipes').map((c) => c.name).filter((n) => !NO_DOOR.has(n) && !names.has(n));
    expect(missing).toEqual([]);
  }, 60_000);

  it('every public method that takes arguments has a door (or shares the function of one that has)', () => {
    const exported = recipes as unknown as Record<string, unknown>;
    const covered = new Set<unknown>();
    for (const d of doors) {
      const [cls, method] = d.door.split('.');
      const proto = (exported[cls ?? ''] as { prototype?: Record<string, unknown> } | undefined)?.prototype;
      if (method !== undefined && proto !== undefined) covered.add(proto[method]);
    }
    const missing: string[] = [];
    for (const { name, kind } of exportedCallables('@zkts/recipes')) {
      if (kind !== 'class' || NO_DOOR.has(name)) continue;
      const proto = (exported[name] as { prototype: Record<string, unknown> }).prototype;
      for (const method of publicMethodsOf('@zkts/recipes', name).filter((m) => !m.startsWith('static '))) {
        const fn = proto[method];
        if (typeof fn === 'function' && takesArguments(fn) && !covered.has(fn)) missing.push(`${name}.${method}`);
      }
    }
    expect(missing).toEqual([]);
  }, 60_000);
});

/** Whether a method declares parameters (its source's parameter list is not empty). */
function takesArguments(fn: object): boolean {
  const source = fn.toString();
  const open = source.indexOf('(');
  return open >= 0 && source[open + 1] !== ')';
}
