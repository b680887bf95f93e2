/**
 * The console's view of a server through four-letter words: who is connected (cons), what each session
 * watches (wchc, wchp) and owns (dump), and `mntr` sampled over time. Servers answer only the words in
 * their `4lw.commands.whitelist`, so every word is optional: each one's status (and why it is missing) is
 * reported, and the session list is built from whatever did answer.
 */
import type { ConnectionOptions } from 'node:tls';

import { fourLetter, parseFourLetter } from '../../commands/four-letter.js';
import type { HostPort } from '../../hosts.js';
import type { MntrHistory, SessionsInfo, WordStatus } from '../api-types.js';
import { hotPaths, mergeSessions, parseCons, parseDump, parseWatchesByPath, parseWatchesBySession, refusal } from './four-letter-parse.js';
import type { SessionWords } from './four-letter-parse.js';

/** Sends one word to one host and resolves with the whole answer; rejects when the host cannot be reached. */
export type AskWord = (host: HostPort, word: string) => Promise<string>;

/** The clock and timer the mntr sampler runs on (injected by unit tests). */
export interface SamplerTimer {
  now(): number;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface FourLetterSourceOptions {
  /** ms to wait for each answer; default 5000. */
  readonly timeoutMs?: number;
  /** How many mntr samples are kept (oldest dropped); default 300 (10 minutes every 2 s). */
  readonly capacity?: number;
  readonly ask?: AskWord;
  readonly timer?: SamplerTimer;
  /** Ask over TLS with these options (the console's --tls settings), as a secureClientPort needs. */
  readonly tls?: ConnectionOptions | undefined;
}

const SESSION_WORDS = ['cons', 'wchc', 'wchp', 'dump'] as const;
type SessionWord = (typeof SESSION_WORDS)[number];

/** Node's timers, unref'd: a sampler never keeps the process alive. */
export const systemTimer: SamplerTimer = {
  now: () => Date.now(),
  setInterval(callback, ms) {
    const handle = setInterval(callback, ms);
    handle.unref();
    return handle;
  },
  clearInterval(handle) {
    clearInterval(handle as NodeJS.Timeout);
  },
};

type Answer = { ok: true; text: string } | { ok: false; unreachable: boolean; reason: string };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type Sample = MntrHistory['samples'][number];

export class FourLetterSource {
  readonly hosts: readonly HostPort[];
  private readonly ask: AskWord;
  private readonly timer: SamplerTimer;
  private readonly capacity: number;
  private readonly samples: Sample[] = [];
  private sampling: unknown;
  private inFlight = false;
  private closed = false;
  private lastReason: string | null = 'not sampled yet';

  constructor(hosts: readonly HostPort[], options: FourLetterSourceOptions = {}) {
    if (hosts.length === 0) throw new RangeError('FourLetterSource needs at least one host');
    this.hosts = hosts;
    const timeout = options.timeoutMs ?? 5000;
    const tls = options.tls;
    this.ask = options.ask ?? ((host, word) => fourLetter(host, word, timeout, tls));
    this.timer = options.timer ?? systemTimer;
    this.capacity = Math.max(1, options.capacity ?? 300);
  }

  /**
   * Asks one word of the first host that can be reached (in the connect string's order). A refusal is an
   * answer: the host is reachable, the word is not allowed.
   */
  private async word(word: string): Promise<Answer> {
    const unreachable: string[] = [];
    for (const host of this.hosts) {
      let text: string;
      try {
        text = await this.ask(host, word);
      } catch (error) {
        unreachable.push(`${host.host}:${host.port}: ${messageOf(error)}`);
        continue;
      }
      const reason = refusal(word, text);
      return reason === null ? { ok: true, text } : { ok: false, unreachable: false, reason };
    }
    return { ok: false, unreachable: true, reason: `no server answered: ${unreachable.join('; ')}` };
  }

  /** cons, wchc, wchp and dump, asked together; whatever answered makes the session list. */
  async sessions(): Promise<SessionsInfo> {
    const answers = await Promise.all(SESSION_WORDS.map(async (word) => [word, await this.word(word)] as const));
    const text = (word: SessionWord): string | undefined => {
      const answer = answers.find(([w]) => w === word)?.[1];
      return answer?.ok === true ? answer.text : undefined;
    };
    const words: WordStatus[] = answers.map(([word, answer]) => ({ word, available: answer.ok, reason: answer.ok ? null : answer.reason }));
    const cons = text('cons');
    const wchc = text('wchc');
    const wchp = text('wchp');
    const dump = text('dump');
    const parsed: SessionWords = {
      cons: cons === undefined ? undefined : parseCons(cons),
      wchc: wchc === undefined ? undefined : parseWatchesBySession(wchc),
      wchp: wchp === undefined ? undefined : parseWatchesByPath(wchp),
      dump: dump === undefined ? undefined : parseDump(dump),
    };
    return { words, sessions: mergeSessions(parsed), hotPaths: hotPaths(parsed) };
  }

  /** Samples `mntr` now and then every `everyMs` until close(); calling it again changes the period. */
  start(everyMs = 2000): void {
    if (this.closed) return;
    if (this.sampling !== undefined) this.timer.clearInterval(this.sampling);
    this.sampling = this.timer.setInterval(() => void this.sample(), everyMs);
    void this.sample();
  }

  /** One mntr sample into the ring; skipped while the previous one is still waiting for its answer. */
  async sample(): Promise<void> {
    if (this.closed || this.inFlight) return;
    this.inFlight = true;
    try {
      const answer = await this.word('mntr');
      if (this.closed) return;
      if (!answer.ok) {
        this.lastReason = answer.reason;
        return;
      }
      this.lastReason = null;
      this.samples.push({ at: this.timer.now(), values: parseFourLetter(answer.text) });
      if (this.samples.length > this.capacity) this.samples.splice(0, this.samples.length - this.capacity);
    } finally {
      this.inFlight = false;
    }
  }

  /** The samples so far, oldest first; `available` says whether the latest attempt got an answer. */
  mntr(): MntrHistory {
    return { available: this.lastReason === null, reason: this.lastReason, samples: [...this.samples] };
  }

  /** Stops sampling; an answer still on its way is dropped. */
  close(): void {
    this.closed = true;
    if (this.sampling !== undefined) this.timer.clearInterval(this.sampling);
    this.sampling = undefined;
  }
}
