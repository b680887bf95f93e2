/**
 * The console's embedded decoding proxy: clients connect to it instead of the server, every byte goes
 * through unchanged (tap-proxy.ts, the byte path `zkts proxy` uses), and the decoded conversation feeds the
 * same analysis `zkts proxy --stats --json` prints plus per-op series for the live charts.
 */
import type { HostPort } from '../../hosts.js';
import { buildReport, TrafficStats, type StatsReport } from '../../stats/index.js';
import { listenTapProxy } from '../../tap-proxy.js';
import type { TapProxy } from '../../tap-proxy.js';
import type { TrafficInfo } from '../api-types.js';
import { OpSeries } from './op-series.js';

export interface TrafficSourceOptions {
  /** Seconds of series kept; default 600. */
  readonly windowSeconds?: number;
  /** Told when analysing a line threw (the bytes were forwarded all the same). */
  readonly onTapError?: (conn: number, error: unknown) => void;
}

export class TrafficSource {
  private readonly proxy: TapProxy;
  private readonly stats: TrafficStats;
  private readonly series: OpSeries;
  private readonly failures: { count: number };

  private constructor(proxy: TapProxy, stats: TrafficStats, series: OpSeries, failures: { count: number }) {
    this.proxy = proxy;
    this.stats = stats;
    this.series = series;
    this.failures = failures;
  }

  /** Lines whose analysis threw: counted, never fatal (their bytes were forwarded). */
  get tapErrors(): number {
    return this.failures.count;
  }

  /** Listens on `listen` (port 0: a free port) and forwards to `upstream`; rejects when it cannot bind. */
  static async listen(listen: HostPort, upstream: HostPort, options: TrafficSourceOptions = {}): Promise<TrafficSource> {
    const stats = new TrafficStats();
    const series = new OpSeries(options.windowSeconds);
    const failures = { count: 0 };
    const proxy = await listenTapProxy({
      listen,
      upstream,
      open({ id, client, start }) {
        stats.open(id, client, start);
        return {
          lines(lines) {
            for (const line of lines) {
              stats.add(line);
              series.add(line);
            }
          },
          closed(time, why) {
            stats.close(id, time, why);
          },
        };
      },
      tapError(conn, error) {
        failures.count++;
        options.onTapError?.(conn, error);
      },
    });
    return new TrafficSource(proxy, stats, series, failures);
  }

  /** `host:port` actually bound, for clients. */
  get address(): string {
    return this.proxy.address;
  }

  /** Connections being proxied now. */
  get connections(): number {
    return this.proxy.connections;
  }

  info(now = Date.now()): TrafficInfo {
    return {
      available: true,
      listen: this.address,
      report: this.stats.first === undefined ? null : newestChanges(buildReport(this.stats)),
      series: this.series.points(now),
    };
  }

  /** Closes the listener and every proxied connection. */
  close(): Promise<void> {
    return this.proxy.close();
  }
}

/**
 * The page polls every second and shows the newest changes: the report keeps up to 100,000 of them, so the
 * answer carries only the newest PAGE_CHANGES (the fan-out figures still cover all of them).
 */
const PAGE_CHANGES = 200;

function newestChanges(report: StatsReport): StatsReport {
  const all = report.fanout.perChange;
  if (all.length <= PAGE_CHANGES) return report;
  return { ...report, fanout: { ...report.fanout, perChange: all.slice(-PAGE_CHANGES) } };
}
