/**
 * The console's server-side data sources, made from its options: four-letter words always (sessions,
 * watches, mntr samples), the embedded decoding proxy with --proxy, the transaction history with
 * --data-dir. The HTTP layer asks them for the JSON of api-types.ts and closes them all with close().
 */
import type { HostPort } from '../../hosts.js';
import { FourLetterSource } from './four-letter-source.js';
import type { FourLetterSourceOptions } from './four-letter-source.js';
import { HistorySource } from './history-source.js';
import { TrafficSource } from './traffic-source.js';

export { FourLetterSource, systemTimer } from './four-letter-source.js';
export type { AskWord, FourLetterSourceOptions, SamplerTimer } from './four-letter-source.js';
export { TrafficSource } from './traffic-source.js';
export type { TrafficSourceOptions } from './traffic-source.js';
export { HistoryError, HistorySource, DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT } from './history-source.js';
export type { HistoryErrorCode, HistoryQuery } from './history-source.js';

export interface SourcesOptions {
  /** The connect string's hosts: four-letter words go to the first that answers. */
  readonly hosts: readonly HostPort[];
  /** --proxy: where clients connect, and the server it forwards to. */
  readonly proxy?: { readonly listen: HostPort; readonly upstream: HostPort } | undefined;
  /** --data-dir: a ZooKeeper dataDir (or its version-2/). */
  readonly dataDir?: string | undefined;
  /** How often mntr is sampled, ms (default 2000); 0 samples only when asked (FourLetterSource.sample). */
  readonly mntrEveryMs?: number | undefined;
  readonly fourLetter?: FourLetterSourceOptions | undefined;
}

export interface Sources {
  readonly fourLetter: FourLetterSource;
  readonly traffic: TrafficSource | undefined;
  readonly history: HistorySource | undefined;
  /** Stops the sampler and closes the proxy with all its connections. */
  close(): Promise<void>;
}

/** Starts what the options ask for; rejects (nothing left running) when the proxy cannot listen. */
export async function createSources(options: SourcesOptions): Promise<Sources> {
  const fourLetter = new FourLetterSource(options.hosts, options.fourLetter);
  const traffic = options.proxy === undefined ? undefined : await TrafficSource.listen(options.proxy.listen, options.proxy.upstream);
  const every = options.mntrEveryMs ?? 2000;
  if (every > 0) fourLetter.start(every);
  const history = options.dataDir === undefined ? undefined : new HistorySource(options.dataDir);
  return {
    fourLetter,
    traffic,
    history,
    async close(): Promise<void> {
      fourLetter.close();
      await traffic?.close();
    },
  };
}
