/** What every command file exports, and what it gets when it runs. */
import type { WatchEvent } from '@zkts/protocol';

import type { OptionHints, OptionSpecs, ParsedArgs } from './args.js';
import { UsageError } from './exit-codes.js';
import { takesValue } from './global-options.js';
import type { Output } from './output.js';
import type { SaslSpec } from './sasl.js';
import type { Session } from './session.js';
import { either, nearest } from './suggest.js';
import type { TlsSettings } from './tls-options.js';

export interface GlobalOptions {
  /** The connect string, chroot included. */
  readonly server: string;
  /** ms: give up connecting or on any request after this long (lock: waiting for the lock). */
  readonly timeout: number | undefined;
  readonly sessionTimeout: number | undefined;
  readonly json: boolean;
  readonly auth: readonly { scheme: string; auth: string }[];
  /** --sasl, parsed (the mechanism is made when the session opens). */
  readonly sasl?: SaslSpec | undefined;
  /** --tls and the --tls-* options, files already read; undefined: a plain TCP connection. */
  readonly tls?: TlsSettings | undefined;
  /** --allow-read-only (zkCli's -r): a server cut off from its quorum may serve the session, for reads only. */
  readonly allowReadOnly?: boolean;
}

export interface Io {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
}

export interface CommandContext {
  readonly args: ParsedArgs;
  readonly global: GlobalOptions;
  readonly out: Output;
  readonly session: Session;
  readonly io: Io;
  /** Fires on SIGINT/SIGTERM (the shell: on Ctrl-C while a command runs). */
  readonly signal: AbortSignal;
  /** True inside `zkts shell`, where a few commands (shell itself, lock) make no sense. */
  readonly interactive: boolean;
  /** The command table, for the shell (which runs the other commands). */
  readonly commands: readonly Command[];
  /**
   * Inside the shell: takes the one-shot watch a `-w` read left and reports its event whenever it comes, while
   * the shell goes on. Outside it is undefined and the command waits for the event itself.
   */
  readonly deferWatch?: ((watch: Promise<WatchEvent>, out: Output) => void) | undefined;
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  /** Everything after `zkts NAME`, e.g. `[-R] PATH`. */
  readonly usage: string;
  /** Extra paragraphs for `zkts NAME --help`. */
  readonly details?: string;
  readonly options: OptionSpecs;
  /**
   * For a command whose first word is an action (`quota set`, `quota rm`): the options of each action, added to
   * `options` when that action is given. Two actions may give one letter different meanings (`-n COUNT` to set,
   * `-n` alone to remove).
   */
  readonly actionOptions?: Readonly<Record<string, OptionSpecs>>;
  /** Keep the arguments after `--` apart (lock's command line). */
  readonly splitRest?: boolean;
  /** What to say about options it lacks, e.g. zkCli's flags spelled differently in zkts (args.ts). */
  readonly optionHints?: OptionHints;
  /**
   * Set on the zkCli names of our commands (`deleteall`): what it is in zkts, e.g. `rm -r`. Help lists these
   * apart, under zkCli's names.
   */
  readonly aliasOf?: string;
  run(context: CommandContext): Promise<number>;
}

/**
 * The options `zkts NAME ARGS...` is parsed with: the command's own, plus those of its action (the first word of
 * ARGS that is neither an option nor a global option's value), when it has actions.
 */
export function optionsOf(command: Command, args: readonly string[]): OptionSpecs {
  if (command.actionOptions === undefined) return command.options;
  for (let i = 0; i < args.length; i++) {
    const token = args[i] as string;
    if (token === '--') break;
    if (token.startsWith('-')) {
      if (takesValue(token)) i++;
      continue;
    }
    return { ...command.options, ...command.actionOptions[token] };
  }
  return command.options;
}

export function positional(context: CommandContext, index: number, name: string): string {
  const value = context.args.positionals[index];
  if (value === undefined) throw new UsageError(`missing ${name}`);
  return value;
}

/**
 * The first positional as one of `actions` (`acl get …`). A missing or unknown action is a usage error that
 * lists them, with the near misses, and says so when a path came where the action belongs.
 */
export function actionArgument<A extends string>(context: CommandContext, name: string, actions: readonly A[]): A {
  const given = context.args.positionals[0];
  const known = either(actions, '');
  if (given === undefined) throw new UsageError(`missing action (${known})`);
  if ((actions as readonly string[]).includes(given)) return given as A;
  // `zkts acl /path`: the action was left out, not mistyped.
  if (given.startsWith('/')) throw new UsageError(`missing action before ${given}: ${context.interactive ? '' : 'zkts '}${name} ${actions[0] as string} ${given}`);
  const near = nearest(given, actions);
  throw new UsageError(`unknown action '${given}' (${known})${near.length > 0 ? `: did you mean ${either(near)}?` : ''}`);
}

/** Rejects extra positional arguments, which usually mean a quoting mistake. */
export function atMost(context: CommandContext, count: number): void {
  const extra = context.args.positionals[count];
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
}
