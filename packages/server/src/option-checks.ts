/**
 * The checks startServer's options go through before anything listens or opens a file: one small function per
 * kind of value (a positive integer, a port, a non-empty string, a boolean, an object with some methods…), each
 * throwing @zkts/protocol's InvalidArgumentError that names the option and shows the refused value, so a server
 * refuses bad input the way the client does.
 */
import { describeValue, InvalidArgumentError } from '@zkts/protocol/codec';

/** Node's timers overflow past 2^31-1 ms (the timer then fires at once); no timeout or tick may exceed it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

function refuse(option: string, expected: string, value: unknown): never {
  throw new InvalidArgumentError(option, `startServer option ${option} must be ${expected}, got ${describeValue(value)}`);
}

/** An integer in [min, max], or the default when not given. */
export function integerIn(option: string, value: unknown, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    refuse(option, `an integer from ${min} to ${max}`, value);
  }
  return value;
}

/** A positive integer of milliseconds that a timer can wait (1 … 2^31-1). */
export function milliseconds(option: string, value: unknown, fallback: number): number {
  return integerIn(option, value, 1, MAX_TIMER_MS, fallback);
}

export function optionalBoolean(option: string, value: unknown): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') refuse(option, 'true or false', value);
  return value;
}

export function optionalString(option: string, value: unknown): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || value === '')) refuse(option, 'a non-empty string', value);
  return value;
}

/** A plain object (not null, an array or a function), or undefined. */
export function optionalObject(option: string, value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse(option, 'an object', value);
  return value as Record<string, unknown>;
}

/** An object whose `methods` are all functions (a clock, a logger). */
export function withMethods<T>(option: string, value: unknown, methods: readonly string[]): T | undefined {
  const object = optionalObject(option, value);
  if (object === undefined) return undefined;
  for (const method of methods) {
    if (typeof object[method] !== 'function') refuse(`${option}.${method}`, 'a function', object[method]);
  }
  return object as T;
}

/** An array of non-empty strings, each accepted by `accept` when given. */
export function stringList(option: string, value: unknown, accept?: (item: string) => boolean, expected = 'a non-empty string'): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) refuse(option, 'an array of strings', value);
  (value as unknown[]).forEach((item, i) => {
    if (typeof item !== 'string' || item === '' || (accept !== undefined && !accept(item))) refuse(`${option}[${i}]`, expected, item);
  });
  return value as readonly string[];
}

/** A PEM value node:tls takes: a string or a Buffer. */
export function isPem(value: unknown): value is string | Buffer {
  return (typeof value === 'string' && value !== '') || Buffer.isBuffer(value);
}

export { refuse };
