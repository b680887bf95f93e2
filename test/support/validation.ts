/**
 * Shared harness for the table-driven argument tests ("every door checks what it is given"). A package's table
 * lists, per public function/constructor/method, bad calls (`BadCase`) and what each must fail with; the
 * harness checks that each fails AT ONCE (a synchronous throw, or a promise settled before the next
 * `setImmediate`) with the right class/code and a message naming the option and showing the value. The
 * TypeScript compiler API derives what the table must cover (option keys of an exported options type, exported
 * callables, public methods of a class) so a new option or export without a table row fails the test.
 *
 * Usage (in a vitest file):
 *   const cases: BadCase[] = badValuesFor('positive').map((b) => ({
 *     label: `sessionTimeout = ${b.label}`, option: 'sessionTimeout', value: b.value,
 *     call: () => createClient('127.0.0.1:1', { sessionTimeout: b.value as number }),
 *   }));
 *   it.each(cases)('$label', (c) => expectRejectsAtOnce(c.call, { errorClass: InvalidArgumentError,
 *     code: 'INVALID_ARGUMENT', mentions: [c.option, shownValue(c.value)] }));
 *   expect(coveredKeys(cases)).toEqual(expect.arrayContaining(optionKeysOf('@zkts/protocol', 'ClientOptions')));
 * No vitest import here: the checks throw plain Errors, so any runner can use them.
 */
/** One bad call of a table. `option` names the option or positional argument the bad value goes to. */
export interface BadCase {
  readonly label: string;
  readonly call: () => unknown;
  readonly option: string;
  /** The bad value, when there is one to show; `mentions` then defaults to [option, shownValue(value)]. */
  readonly value?: unknown;
  /** Extra or replacement substrings the message must contain (replaces the default). */
  readonly mentions?: readonly string[];
}

export interface Rejection {
  /** The class the error must be an instance of. */
  readonly errorClass: abstract new (...args: never[]) => Error;
  /** The error's `code` property, when the class has one. */
  readonly code?: string;
  /** Substrings the message must contain (option name, value text…). */
  readonly mentions?: readonly string[];
  /** 'sync': must throw synchronously; 'async': must return a promise that rejects; unset: either. */
  readonly style?: 'sync' | 'async';
}

/**
 * Calls `call` and checks it fails at once as `expected` says: a synchronous throw, or a returned promise (any
 * thenable) that rejects before a `setImmediate` queued after the call runs (one event-loop turn; a promise
 * still pending then is a failure, as is one that resolves). Resolves with the error for further checks.
 */
export async function expectRejectsAtOnce(call: () => unknown, expected: Rejection): Promise<Error> {
  let returned: unknown;
  try {
    returned = call();
  } catch (error) {
    if (expected.style === 'async') throw new Error(`expected a rejected promise, but the call threw synchronously: ${String(error)}`);
    return checkError(error, expected);
  }
  if (!isThenable(returned)) {
    throw new Error(`expected a throw or a rejected promise, but the call returned ${preview(returned)}`);
  }
  if (expected.style === 'sync') {
    // Keep an unobserved rejection from failing the run before our own failure is reported.
    Promise.resolve(returned).catch(() => undefined);
    throw new Error('expected a synchronous throw, but the call returned a promise');
  }
  const PENDING = Symbol('pending');
  const turn = new Promise<typeof PENDING>((done) => setImmediate(() => done(PENDING)));
  const outcome = await Promise.race([
    Promise.resolve(returned).then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error })),
    turn,
  ]);
  if (outcome === PENDING) {
    Promise.resolve(returned).catch(() => undefined);
    throw new Error('the promise was still pending one event-loop turn after the call (validation must not wait for I/O)');
  }
  if (outcome.ok) throw new Error(`expected a rejection, but the promise resolved with ${preview(outcome.value)}`);
  return checkError(outcome.error, expected);
}

function checkError(error: unknown, expected: Rejection): Error {
  if (!(error instanceof expected.errorClass)) {
    throw new Error(`expected ${expected.errorClass.name}, got ${error instanceof Error ? `${error.name}: ${error.message}` : preview(error)}`, { cause: error });
  }
  const code = (error as { code?: unknown }).code;
  if (expected.code !== undefined && code !== expected.code) {
    throw new Error(`expected code ${expected.code}, got ${String(code)} (${error.message})`, { cause: error });
  }
  for (const text of expected.mentions ?? []) {
    if (!error.message.includes(text)) throw new Error(`message does not mention ${JSON.stringify(text)}: ${error.message}`, { cause: error });
  }
  return error;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function preview(value: unknown): string {
  try {
    return typeof value === 'object' && value !== null ? `${value.constructor.name} object` : String(value);
  } catch {
    return typeof value;
  }
}

/**
 * What a message must contain to "show the value": numbers/booleans as String() prints them, strings quoted
 * (a prefix, messages may cut long strings), bigint with `n`, and for other values the word for their kind
 * ('function', 'array', 'object', 'null', 'undefined', 'bytes'). Matches @zkts/protocol's describeValue.
 */
export function shownValue(value: unknown): string {
  switch (typeof value) {
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'string':
      return JSON.stringify(value.slice(0, 20)).slice(0, -1);
    case 'symbol':
      return 'Symbol(';
    case 'function':
      return 'function';
    case 'undefined':
      return 'undefined';
    default:
      if (value === null) return 'null';
      if (Array.isArray(value)) return 'array';
      if (value instanceof Uint8Array) return 'bytes';
      return 'object';
  }
}

/** The default `mentions` of a case: its option, and its value as shown when it has one. */
export function mentionsOf(c: BadCase): string[] {
  if (c.mentions !== undefined) return [...c.mentions];
  return 'value' in c ? [c.option, shownValue(c.value)] : [c.option];
}

export type ValueKind =
  | 'number' // any finite number
  | 'integer' // any finite integer (negative allowed)
  | 'nonNegative' // integer >= 0 (a count, a port 0…)
  | 'positive' // integer >= 1 (a timeout in ms that must be > 0, a size)
  | 'string' // any string
  | 'nonEmptyString'
  | 'boolean'
  | 'function'
  | 'signal' // an AbortSignal
  | 'object' // a plain options-like object
  | 'array'
  | 'bytes'; // Uint8Array

export interface BadValue {
  readonly label: string;
  readonly value: unknown;
  /** What the message must mention instead of [option, shownValue(value)] (a member of the value, say). */
  readonly mentions?: readonly string[];
}

/** One bad value for a table row; `mentions` replaces what its message must contain (see BadValue). */
export function badValue(label: string, value: unknown, mentions?: readonly string[]): BadValue {
  return mentions === undefined ? { label, value } : { label, value, mentions };
}
const bv = badValue;

const wrongTypes: Record<string, BadValue> = {
  string: bv('a string', 'x'),
  number: bv('a number', 1),
  boolean: bv('a boolean', true),
  nul: bv('null', null),
  fn: bv('a function', () => undefined),
  obj: bv('an object', { x: 1 }),
  arr: bv('an array', [1]),
  big: bv('a bigint', 1n),
  sym: bv('a symbol', Symbol('bad')),
};

const numeric = [bv('NaN', Number.NaN), bv('Infinity', Number.POSITIVE_INFINITY), bv('-Infinity', Number.NEGATIVE_INFINITY)];
const notNumber = [wrongTypes.string, wrongTypes.boolean, wrongTypes.nul, wrongTypes.obj, wrongTypes.big];

/**
 * Wrong values for an option of a kind: wrong types, and for numbers NaN, ±Infinity, fractions, negatives and
 * huge values where the kind excludes them; for strings and arrays the empty one where the kind excludes it.
 * `undefined` is never in the list (it means "not given"). Pass `extra` for values only this option refuses
 * (`{ max: 65535 }` adds 65536, `{ min: 10 }` adds 9).
 */
export function badValuesFor(kind: ValueKind, extra: { min?: number; max?: number } = {}): BadValue[] {
  const out: (BadValue | undefined)[] = [];
  switch (kind) {
    case 'number':
      out.push(...notNumber, ...numeric);
      break;
    case 'integer':
      out.push(...notNumber, ...numeric, bv('a fraction', 1.5), bv('beyond 2^53', 2 ** 60));
      break;
    case 'nonNegative':
      out.push(...notNumber, ...numeric, bv('a fraction', 1.5), bv('-1', -1), bv('beyond 2^53', 2 ** 60));
      break;
    case 'positive':
      out.push(...notNumber, ...numeric, bv('a fraction', 1.5), bv('0', 0), bv('-1', -1), bv('beyond 2^53', 2 ** 60));
      break;
    case 'string':
      out.push(wrongTypes.number, wrongTypes.boolean, wrongTypes.nul, wrongTypes.obj, wrongTypes.arr);
      break;
    case 'nonEmptyString':
      out.push(wrongTypes.number, wrongTypes.boolean, wrongTypes.nul, wrongTypes.obj, wrongTypes.arr, bv('empty', ''));
      break;
    case 'boolean':
      out.push(wrongTypes.string, wrongTypes.number, bv('the string "false"', 'false'), wrongTypes.nul, wrongTypes.obj);
      break;
    case 'function':
      out.push(wrongTypes.string, wrongTypes.number, wrongTypes.nul, wrongTypes.obj);
      break;
    case 'signal':
      out.push(wrongTypes.string, wrongTypes.boolean, wrongTypes.nul, bv('an object without aborted', { aborted: 'no' }), wrongTypes.fn);
      break;
    case 'object':
      out.push(wrongTypes.string, wrongTypes.number, wrongTypes.nul, wrongTypes.arr, wrongTypes.fn);
      break;
    case 'array':
      out.push(wrongTypes.string, wrongTypes.number, wrongTypes.nul, wrongTypes.obj);
      break;
    case 'bytes':
      out.push(wrongTypes.number, wrongTypes.nul, wrongTypes.obj, wrongTypes.arr);
      break;
  }
  if (extra.min !== undefined) out.push(bv(`below the minimum (${extra.min - 1})`, extra.min - 1));
  if (extra.max !== undefined) out.push(bv(`above the maximum (${extra.max + 1})`, extra.max + 1));
  return out.filter((v): v is BadValue => v !== undefined);
}

/** The options named by a table's cases, sorted and deduplicated (to compare with optionKeysOf). */
export function coveredOptions(cases: readonly BadCase[]): string[] {
  return [...new Set(cases.map((c) => c.option))].sort();
}

// ---- What a table must cover (validation-surface.ts) --------------------------------------------------------

export { exportedCallables, interfaceMethodsOf, optionKeysOf, publicMethodsOf } from './validation-surface.js';
export type { ExportedCallable, MethodShape } from './validation-surface.js';

// ---- Building tables ----------------------------------------------------------------------------------------

/** What an option takes: a ValueKind (badValuesFor it), or an explicit list of bad values. */
export type OptionSpec = ValueKind | readonly BadValue[];

/**
 * One BadCase per (option, bad value): `call` gets `{ ...base, [option]: value }`. `where` prefixes the labels.
 * Pair it with `coveredOptions(cases)` and `optionKeysOf(...)` to prove every key of the type has rows.
 */
export function optionCases(
  where: string,
  specs: Readonly<Record<string, OptionSpec>>,
  call: (options: Record<string, unknown>) => unknown,
  base: Readonly<Record<string, unknown>> = {},
): BadCase[] {
  const out: BadCase[] = [];
  for (const [option, spec] of Object.entries(specs)) {
    const values = typeof spec === 'string' ? badValuesFor(spec as ValueKind) : spec;
    for (const b of values) {
      out.push({
        label: `${where}: ${option} = ${b.label}`, option, value: b.value, call: () => call({ ...base, [option]: b.value }),
        ...(b.mentions === undefined ? {} : { mentions: b.mentions }),
      });
    }
  }
  return out;
}

/** A typo of `key` that the unknown-option policy must catch as a near miss (two letters swapped, or case). */
export function typoOf(key: string): string {
  if (key.length < 4) return key.toUpperCase();
  // Two neighbouring letters swapped, from the middle outwards: the first swap that changes the key (two equal
  // letters swapped would give the key back). A key of one repeated letter gets one letter dropped instead.
  for (let d = 0; d < key.length; d++) {
    for (const i of [Math.floor(key.length / 2) + d, Math.floor(key.length / 2) - d]) {
      if (i < 1 || i >= key.length || key[i] === key[i - 1]) continue;
      return `${key.slice(0, i - 1)}${key[i] ?? ''}${key[i - 1] ?? ''}${key.slice(i + 1)}`;
    }
  }
  return key.slice(1);
}

/**
 * The two policy rows every options object gets: a near miss of `knownKey` (must be refused with "did you
 * mean '<knownKey>'") and a non-object options argument (null).
 */
export function policyCases(where: string, knownKey: string, call: (options: unknown) => unknown, optionsName = 'options'): BadCase[] {
  const typo = typoOf(knownKey);
  return [
    { label: `${where}: unknown key ${typo}`, option: typo, mentions: [`'${typo}'`, `did you mean '${knownKey}'`], call: () => call({ [typo]: 1 }) },
    { label: `${where}: ${optionsName} = null`, option: optionsName, value: null, call: () => call(null) },
  ];
}
