/**
 * The Traffic view (console started with --proxy): what clients connected through the console's decoding
 * proxy asked and how fast the server answered. Requests/s and p50/p99 latency per op as charts, percentiles
 * per op, the herd factor of each change, a timeline per session and the slowest requests. Refreshed every
 * second.
 */
import type { JSX } from 'preact';

import type { TrafficInfo, TrafficReport } from '../../../../src/console/api-types.js';
import { getJson } from '../../api.js';
import { colorOf, LineChart, type ChartSeries } from '../../charts/line-chart.js';
import { usePoll } from '../../charts/poll.js';
import { registerView, type ViewProps } from '../registry.js';
import { HerdTable, LatencyTable, SlowestTable } from './tables.js';
import { SessionTimelines } from './timeline.js';

const EVERY_MS = 1000;
/** The charts show at least a minute and at most the last five. */
const SPAN = { minSpanMs: 60_000, maxSpanMs: 300_000 };

function rateSeries(info: TrafficInfo): ChartSeries[] {
  return Object.entries(info.series).map(([op, points]) => ({ name: op, color: colorOf(op), points: points.map((p) => [p.at, p.requests] as const) }));
}

function latencySeries(info: TrafficInfo): ChartSeries[] {
  return Object.entries(info.series).flatMap(([op, points]) => [
    { name: `${op} p50`, color: colorOf(op), points: points.map((p) => [p.at, p.p50] as const) },
    { name: `${op} p99`, color: colorOf(op), dashed: true, points: points.map((p) => [p.at, p.p99] as const) },
  ]);
}

function TrafficView({ info }: ViewProps): JSX.Element {
  const traffic = usePoll((signal) => getJson<TrafficInfo>('/api/traffic', {}, signal), EVERY_MS);
  const value = traffic.value;
  const report = (value?.report ?? null) as TrafficReport | null;
  return (
    <div class="ops" data-testid="traffic-view">
      <p class="lead">
        Point clients at the proxy <span class="mono" data-testid="proxy-address">{value?.listen ?? info.proxy ?? '–'}</span> instead of the
        server: their requests are forwarded unchanged and decoded here.
      </p>
      {traffic.error === undefined ? null : <p class="error" data-testid="traffic-error">{traffic.error.message}</p>}
      {value === undefined ? null : report === null ? (
        <p class="muted" data-testid="no-traffic">No traffic yet.</p>
      ) : (
        <p class="muted small" data-testid="traffic-totals">
          {report.totals.requests} requests, {report.totals.replies} replies, {report.totals.events} notifications, {report.totals.errors} errors over{' '}
          {report.totals.connections} connections ({report.totals.sessions} sessions)
        </p>
      )}
      {value === undefined ? null : (
        <div class="charts">
          <LineChart {...SPAN} testid="chart-rate" title="requests/s per op" unit="/s" width={560} height={180} series={rateSeries(value)} />
          <LineChart {...SPAN} testid="chart-latency" title="latency per op (p50 solid, p99 dashed)" unit=" ms" width={560} height={180} series={latencySeries(value)} />
        </div>
      )}
      {report === null ? null : (
        <>
          <h2>Latency per op</h2>
          <LatencyTable report={report} />
          <h2>Herd factor per change</h2>
          <HerdTable report={report} />
          <h2>Sessions</h2>
          <SessionTimelines report={report} />
          <h2>Slowest requests</h2>
          <SlowestTable report={report} />
        </>
      )}
    </div>
  );
}

registerView({ id: 'traffic', title: 'Traffic', enabled: (info) => info.proxy !== null, component: TrafficView });
