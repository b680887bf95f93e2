/**
 * kazoo's Counter (kazoo/recipe/counter.py): a number in one node, stored as Python's repr() of the value in
 * ASCII ("42", or "2.5" for a float counter); empty data (kazoo's ensure_path makes the node empty) reads as
 * the default. With `supportCurator` the value is a 4-byte big-endian int instead (kazoo's
 * `support_curator=True`, Curator SharedCount's format). Like kazoo, a change retries on a version race until
 * it gets through; unlike a plain retry after a lost reply it never applies a change twice (counter-cas.ts).
 */
import { sleep, type ACL } from '@zkts/protocol';

import { RecipeArgumentError } from '../errors.js';
import { aclRule, checkArg, checkClientAndPath, checkOptions, rules, withAcl, type OptionRules, type RecipeClient } from '../internal/index.js';
import { CasNode, type CasStats, type Codec } from './counter-cas.js';

/** Options of a kazoo-compatible Counter. */
export interface CounterOptions {
  /** The value of a missing or empty node, and the counter's type: an integer (default 0) or a float. */
  default?: number;
  /** A float counter (kazoo `default=0.0`): values are written as Python float reprs ("3.0"). Default false. */
  float?: boolean;
  /** kazoo's `support_curator`: 4-byte big-endian int data, shared with Curator's SharedCount. Integers only. */
  supportCurator?: boolean;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
}

const OPTION_RULES: OptionRules<CounterOptions> = { default: rules.number(-Number.MAX_VALUE), float: rules.boolean, supportCurator: rules.boolean, acl: aclRule };

const SAFE_INTEGER = rules.integer(Number.MIN_SAFE_INTEGER);

/** The outcome of one change: the value before and after (kazoo's `pre_value`, `post_value`). */
export interface CounterChange {
  readonly preValue: number;
  readonly postValue: number;
}

/** Python's repr of a float for the values a counter holds (finite, written without an exponent). */
function floatRepr(value: number): string {
  const s = String(value);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

function codecFor(options: CounterOptions): Codec<number> {
  const fallback = options.default ?? 0;
  if (options.supportCurator === true) {
    return {
      encode(value) {
        const bytes = new Uint8Array(4);
        new DataView(bytes.buffer).setInt32(0, value);
        return bytes;
      },
      decode(bytes) {
        if (bytes.length === 0) return fallback;
        if (bytes.length !== 4) throw new RecipeArgumentError(`not a 4-byte int: ${bytes.length} bytes`);
        return new DataView(bytes.buffer, bytes.byteOffset, 4).getInt32(0);
      },
    };
  }
  const float = options.float === true;
  return {
    encode: (value) => new TextEncoder().encode(float ? floatRepr(value) : String(value)),
    decode(bytes) {
      if (bytes.length === 0) return fallback;
      const text = new TextDecoder().decode(bytes);
      const value = Number(text);
      if (text.trim() === '' || !Number.isFinite(value) || (!float && !/^\s*[-+]?\d+\s*$/.test(text))) {
        throw new RecipeArgumentError(`not a kazoo ${float ? 'float' : 'int'} counter value: ${JSON.stringify(text)}`);
      }
      return value;
    },
  };
}

/** kazoo's Counter: repr(value) as ASCII (or, with `supportCurator`, a 4-byte int); changes retry until applied, exactly once. */
export class Counter {
  readonly client: RecipeClient;
  readonly path: string;
  private readonly cas: CasNode<number>;
  private readonly integer: boolean;
  private readonly curator: boolean;

  constructor(client: RecipeClient, path: string, options: CounterOptions = {}) {
    checkClientAndPath('Counter', client, path);
    checkOptions('Counter', options, OPTION_RULES);
    this.integer = options.float !== true;
    this.curator = options.supportCurator === true;
    if (this.curator && !this.integer) throw new RecipeArgumentError('supportCurator counters hold integers only');
    if (this.integer) checkArg('Counter', 'default', options.default ?? 0, this.curator ? rules.int32 : SAFE_INTEGER);
    this.client = client = withAcl(client, options.acl);
    this.path = path;
    this.cas = new CasNode(client, path, codecFor(options));
  }

  /** Attempts, conflicts and lost replies settled (diagnostics). */
  get stats(): Readonly<CasStats> {
    return this.cas.stats;
  }

  /** The current value (the default when the node is missing or empty). */
  async value(): Promise<number> {
    return (await this.cas.read()).value;
  }

  /** Adds `delta` (kazoo's `counter += delta`), retrying on version races until it is applied once. */
  async add(delta: number): Promise<CounterChange> {
    checkArg('Counter.add', 'delta', delta, this.integer ? SAFE_INTEGER : rules.number(-Number.MAX_VALUE));
    for (let retry = 0; ; retry++) {
      const current = await this.cas.read();
      const next = current.value + delta;
      if (this.curator && (next > 2 ** 31 - 1 || next < -(2 ** 31))) throw new RecipeArgumentError(`${next} does not fit in a 4-byte int`);
      if (await this.cas.trySet(current, next)) return { preValue: current.value, postValue: next };
      // A short, growing pause with jitter, so racing incrementers spread out.
      await sleep(Math.random() * Math.min(100, 2 ** Math.min(retry, 7)));
    }
  }

  /** Subtracts `delta` (kazoo's `counter -= delta`). */
  async subtract(delta: number): Promise<CounterChange> {
    checkArg('Counter.subtract', 'delta', delta, this.integer ? SAFE_INTEGER : rules.number(-Number.MAX_VALUE));
    return this.add(-delta);
  }

  /** Deletes this instance's receipt node (the counter stays). */
  close(): Promise<void> {
    return this.cas.close();
  }
}
