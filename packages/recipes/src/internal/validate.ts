/**
 * Argument checks every public door of the recipes runs before anything else, so that a bad argument is always
 * the same typed error (RecipeArgumentError, code INVALID_USE) naming the argument and the value, thrown by a
 * constructor or rejected by an async method at once, and never a hang or a late error from deep inside a
 * background loop. A door states its arguments as Rules (one per option, checked complete by the compiler
 * through OptionRules) and calls checkArg / checkOptions / checkWait.
 */
import { describeValue, validatePath } from '@zkts/protocol';

import { RecipeArgumentError } from '../errors.js';
import { checkUnknownOptions } from './unknown-options.js';
import type { WaitOptions } from './wait.js';

/** What a value must be: `expect` in words for the message ("a boolean"), `test` accepts it. */
export interface Rule {
  readonly expect: string;
  readonly test: (value: unknown) => boolean;
}

/** A rule for every option of `O`, none missing: adding an option without a rule does not compile. */
export type OptionRules<O> = { readonly [K in keyof O]-?: Rule };

/** The longest wait a timer can express (Node's setTimeout fires at once past 2^31-1 ms). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function pathError(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'not a string';
  try {
    validatePath(value);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** The rules the doors share. */
export const rules = {
  boolean: { expect: 'a boolean', test: (v) => typeof v === 'boolean' },
  string: { expect: 'a string', test: (v) => typeof v === 'string' },
  nonEmptyString: { expect: 'a non-empty string', test: (v) => typeof v === 'string' && v !== '' },
  function: { expect: 'a function', test: (v) => typeof v === 'function' },
  bytes: { expect: 'a Uint8Array', test: (v) => v instanceof Uint8Array },
  iterable: { expect: 'an iterable', test: (v) => (isObject(v) && typeof (v as unknown as Iterable<unknown>)[Symbol.iterator] === 'function') || Array.isArray(v) },
  /** A Java long: a bigint in -2^63..2^63-1. */
  long: { expect: 'a bigint in -2^63..2^63-1', test: (v) => typeof v === 'bigint' && v === BigInt.asIntN(64, v) },
  /** A Java int: an integer in -2^31..2^31-1. */
  int32: { expect: 'a 32-bit integer (-2^31..2^31-1)', test: (v) => isInteger(v) && v >= -(2 ** 31) && v <= 2 ** 31 - 1 },
  data: { expect: 'a string or a Uint8Array', test: (v) => typeof v === 'string' || v instanceof Uint8Array },
  signal: { expect: 'an AbortSignal', test: (v) => v instanceof AbortSignal },
  clock: {
    expect: 'a Clock (now, setTimeout, clearTimeout)',
    test: (v) => isObject(v) && typeof v['now'] === 'function' && typeof v['setTimeout'] === 'function' && typeof v['clearTimeout'] === 'function',
  },
  object: { expect: 'an object', test: isObject },
  path: { expect: 'an absolute ZooKeeper path', test: (v) => pathError(v) === undefined },
  nodeName: {
    expect: 'a node name (non-empty, no "/", not "." or "..")',
    test: (v) => typeof v === 'string' && v !== '' && !v.includes('/') && pathError(`/${v}`) === undefined,
  },
  /** A wait in ms a timer can express: 0 (do not wait) to MAX_TIMEOUT_MS. */
  timeout: { expect: `a number of ms in 0..${MAX_TIMEOUT_MS}`, test: (v) => typeof v === 'number' && v >= 0 && v <= MAX_TIMEOUT_MS },
  integer(min: number, max: number = Number.MAX_SAFE_INTEGER): Rule {
    const expect = max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer in ${min}..${max}`;
    return { expect, test: (v) => isInteger(v) && v >= min && v <= max };
  },
  /** A finite number in [min, max]; `above` makes min exclusive. */
  number(min: number, max: number = Number.MAX_VALUE, options: { above?: boolean } = {}): Rule {
    const low = options.above === true ? `> ${min}` : `≥ ${min}`;
    const expect = max === Number.MAX_VALUE ? `a finite number ${low}` : `a number ${low} and ≤ ${max}`;
    return {
      expect,
      test: (v) => typeof v === 'number' && Number.isFinite(v) && (options.above === true ? v > min : v >= min) && v <= max,
    };
  },
  oneOf<V extends string>(values: readonly V[]): Rule {
    return { expect: `one of ${values.map((v) => `'${v}'`).join(', ')}`, test: (v) => (values as readonly unknown[]).includes(v) };
  },
  /** `rule`, or null. */
  orNull(rule: Rule): Rule {
    return { expect: `${rule.expect} or null`, test: (v) => v === null || rule.test(v) };
  },
  /** An array whose every element passes `rule` (`nonEmpty`: and at least one). */
  arrayOf(rule: Rule, options: { nonEmpty?: boolean } = {}): Rule {
    const expect = `${options.nonEmpty === true ? 'a non-empty' : 'an'} array of ${rule.expect.replace(/^an? /, '')}s`;
    return { expect, test: (v) => Array.isArray(v) && (options.nonEmpty !== true || v.length > 0) && v.every((e) => rule.test(e)) };
  },
  /** An object with `method`s: a duck-typed collaborator (a client, a strategy, a serializer...). */
  withMethods(name: string, ...methods: readonly string[]): Rule {
    return { expect: `${name} (${methods.join(', ')})`, test: (v) => isObject(v) && methods.every((m) => typeof v[m] === 'function') };
  },
} satisfies Record<string, Rule | ((...args: never[]) => Rule)>;

/** The client every recipe takes: checked by its calls, so that a wrong argument order fails at the door. */
export const clientRule = rules.withMethods('a ZooKeeper client', 'getData', 'getChildren', 'exists', 'onStateChange');

function fail(what: string, name: string, rule: Rule, value: unknown, cause?: string): never {
  const detail = cause === undefined ? '' : ` (${cause})`;
  throw new RecipeArgumentError(`${what}: ${name} must be ${rule.expect}, got ${describeValue(value)}${detail}`);
}

/** Throws RecipeArgumentError "<what>: <name> must be <rule>, got <value>" unless `value` passes. */
export function checkArg(what: string, name: string, value: unknown, rule: Rule): void {
  if (!rule.test(value)) fail(what, name, rule, value, rule === rules.path ? pathError(value) : undefined);
}

/**
 * Checks an options object: absent, or a plain object whose every key has a rule and whose every value set
 * (not undefined) passes it. Unknown keys follow protocol's policy (see unknown-options.ts): a near miss of a
 * known key throws, any other unknown key warns once.
 */
export function checkOptions<O>(what: string, options: O | undefined, optionRules: OptionRules<O>, name = 'options'): void {
  if (options === undefined) return;
  if (!isObject(options)) fail(what, name, rules.object, options);
  const table = optionRules as Readonly<Record<string, Rule>>;
  const known = Object.keys(table);
  checkUnknownOptions(options, known, what);
  for (const key of known) {
    const value = (options as Record<string, unknown>)[key];
    const rule = table[key];
    if (value !== undefined && rule !== undefined) checkArg(what, `${name === 'options' ? '' : `${name}.`}${key}`, value, rule);
  }
}

/** The options of `options` that have a rule: what a door hands on to another door it builds on, unwarned. */
export function knownOptions<O extends object>(options: O, optionRules: OptionRules<O>): O {
  return Object.fromEntries(Object.entries(options).filter(([key]) => Object.hasOwn(optionRules, key))) as O;
}

/** The rules of WaitOptions (`{ signal, timeout }`), which every waiting method takes. */
export const WAIT_RULES: OptionRules<WaitOptions> = {
  signal: rules.signal,
  timeout: rules.timeout,
};

/** Checks a waiting method's `{ signal, timeout }`. */
export function checkWait(what: string, options: unknown): void {
  checkOptions(what, options as WaitOptions | undefined, WAIT_RULES);
}

/** Throws RecipeArgumentError unless `path` is a valid absolute ZooKeeper path (protocol's reason as message and cause). */
export function checkPath(path: string): void {
  try {
    validatePath(path);
  } catch (e) {
    throw new RecipeArgumentError(e instanceof Error ? e.message : String(e), { cause: e });
  }
}

/**
 * Throws RecipeArgumentError unless `name` can be one path segment (a node name): a non-empty string with no
 * `/`, not `.` or `..`, and no character ZooKeeper refuses.
 */
export function checkNodeName(what: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '' || name.includes('/')) {
    throw new RecipeArgumentError(`${what} must be a non-empty string without "/", got ${JSON.stringify(name)}`);
  }
  try {
    validatePath(`/${name}`);
  } catch (e) {
    throw new RecipeArgumentError(`${what} ${JSON.stringify(name)} cannot be a node name: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** The checks of a recipe constructor's first two arguments: the client and the path (named `pathName`). */
export function checkClientAndPath(what: string, client: unknown, path: unknown, pathName = 'path'): void {
  checkArg(what, 'client', client, clientRule);
  checkArg(what, pathName, path, rules.path);
}
