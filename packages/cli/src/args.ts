/**
 * The argument parser. Small on purpose: long options (`--name value`, `--name=value`), short flags that can
 * be clustered (`-es`), short options with a value (`-v 3`, `-v3`), `--` ending the options. Unlike
 * node:util parseArgs it accepts a value that starts with a dash (`-v -1`), which versions need.
 */
import { UsageError } from './exit-codes.js';
import { either, nearest } from './suggest.js';

export interface OptionSpec {
  readonly type: 'boolean' | 'string';
  readonly short?: string;
  /** Shown in help; for string options, the placeholder (e.g. 'MS'). */
  readonly arg?: string;
  readonly description: string;
  /** A string option given more than once collects every value (e.g. --auth). */
  readonly multiple?: boolean;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/**
 * What to say about an option the command does not have, keyed by how it was typed (`-m`, `--mode`): for
 * zkCli's flags that zkts spells differently or leaves to another command.
 */
export type OptionHints = Readonly<Record<string, string>>;

export interface ParseOptions {
  /** Keep the arguments after `--` apart (lock's command line). */
  readonly splitRest?: boolean;
  readonly hints?: OptionHints;
}

export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | string[] | undefined>>;
  readonly positionals: readonly string[];
  /** Everything after `--` (only when the caller asked to keep it apart). */
  readonly rest: readonly string[] | undefined;
}

/**
 * `unknown option --nme: did you mean --name?`, or the hint for that spelling. `cluster`: the whole token a
 * short letter came from (`-server`), which may be a long option typed with one dash.
 */
function unknownOption(typed: string, specs: OptionSpecs, hints: OptionHints | undefined, cluster?: string): UsageError {
  for (const spelling of cluster === undefined ? [typed] : [cluster, typed]) {
    const hint = hints?.[spelling];
    if (hint !== undefined) return new UsageError(`unknown option ${spelling}: ${hint}`);
  }
  if (cluster !== undefined && specs[cluster.slice(1)] !== undefined) return new UsageError(`unknown option ${cluster}: did you mean -${cluster}?`);
  if (typed.startsWith('--')) {
    const near = nearest(typed.slice(2), Object.keys(specs));
    if (near.length > 0) return new UsageError(`unknown option ${typed}: did you mean ${either(near.map((n) => `--${n}`), '')}?`);
  }
  return new UsageError(`unknown option ${typed}`);
}

export function parseArgv(argv: readonly string[], specs: OptionSpecs, options: ParseOptions = {}): ParsedArgs {
  const values: Record<string, string | boolean | string[] | undefined> = {};
  const positionals: string[] = [];
  let rest: string[] | undefined;
  const byShort = new Map<string, string>();
  for (const [name, spec] of Object.entries(specs)) if (spec.short !== undefined) byShort.set(spec.short, name);

  const assign = (name: string, value: string | boolean): void => {
    const spec = specs[name];
    if (spec?.multiple === true && typeof value === 'string') {
      const previous = values[name];
      values[name] = Array.isArray(previous) ? [...previous, value] : [value];
    } else {
      values[name] = value;
    }
  };

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === '--') {
      const remaining = argv.slice(i + 1);
      if (options.splitRest === true) rest = remaining;
      else positionals.push(...remaining);
      break;
    }
    if (token.startsWith('--')) {
      const eq = token.indexOf('=');
      const name = token.slice(2, eq === -1 ? undefined : eq);
      const spec = specs[name];
      if (spec === undefined) throw unknownOption(`--${name}`, specs, options.hints);
      if (spec.type === 'boolean') {
        if (eq !== -1) throw new UsageError(`option --${name} takes no value`);
        assign(name, true);
      } else if (eq !== -1) {
        assign(name, token.slice(eq + 1));
      } else {
        const value = argv[++i];
        if (value === undefined) throw new UsageError(`option --${name} needs a value`);
        assign(name, value);
      }
      continue;
    }
    if (token.startsWith('-') && token.length > 1) {
      // A cluster of short flags; a value-taking option ends it (its value is the rest or the next token).
      for (let j = 1; j < token.length; j++) {
        const letter = token[j] as string;
        const name = byShort.get(letter);
        if (name === undefined) throw unknownOption(`-${letter}`, specs, options.hints, token.length > 2 ? token : undefined);
        const spec = specs[name] as OptionSpec;
        if (spec.type === 'boolean') {
          assign(name, true);
          continue;
        }
        const inline = token.slice(j + 1);
        if (inline !== '') {
          assign(name, inline);
        } else {
          const value = argv[++i];
          if (value === undefined) throw new UsageError(`option -${letter} needs a value`);
          assign(name, value);
        }
        break;
      }
      continue;
    }
    positionals.push(token);
  }
  return { values, positionals, rest };
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  if (Array.isArray(value)) return value[value.length - 1];
  return typeof value === 'string' ? value : undefined;
}

export function listOption(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  if (Array.isArray(value)) return value;
  return typeof value === 'string' ? [value] : [];
}

export function flag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

/** A non-negative integer option (milliseconds, versions ≥ -1 use intOption with a minimum). */
export function intOption(args: ParsedArgs, name: string, minimum = 0): number | undefined {
  const raw = stringOption(args, name);
  if (raw === undefined) return undefined;
  return parseInteger(raw, `--${name}`, minimum);
}

export function parseInteger(raw: string, what: string, minimum = 0): number {
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`${what} must be an integer, got '${raw}'`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < minimum) throw new UsageError(`${what} must be an integer ≥ ${minimum}, got '${raw}'`);
  return value;
}

export function formatOptions(specs: OptionSpecs): string {
  const rows = Object.entries(specs).map(([name, spec]) => {
    const short = spec.short === undefined ? '    ' : `-${spec.short}, `;
    const arg = spec.type === 'string' ? ` ${spec.arg ?? 'VALUE'}` : '';
    return [`  ${short}--${name}${arg}`, spec.description] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => left.padEnd(width) + right).join('\n');
}
