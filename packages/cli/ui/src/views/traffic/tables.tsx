/** The Traffic view's tables: latency percentiles per op, the herd factor of each change, the slowest requests. */
import type { JSX } from 'preact';

import type { TrafficReport } from '../../../../src/console/api-types.js';
import { dateTime, duration } from '../../charts/format.js';

/** Changes listed, newest first: the report keeps many more. */
const MAX_CHANGES = 50;

export function LatencyTable({ report }: { report: TrafficReport }): JSX.Element {
  const ops = Object.entries(report.latency);
  if (ops.length === 0) return <p class="muted">No replies yet.</p>;
  return (
    <table class="grid-table" data-testid="latency-table">
      <thead>
        <tr>
          <th>op</th>
          <th>count</th>
          <th>min</th>
          <th>p50</th>
          <th>p90</th>
          <th>p99</th>
          <th>max</th>
          <th>mean</th>
        </tr>
      </thead>
      <tbody>
        {ops.map(([op, l]) => (
          <tr key={op} data-testid="latency-row" data-op={op}>
            <td class="mono" data-testid="latency-op">{op}</td>
            <td data-testid="latency-count">{l.count}</td>
            <td>{duration(l.min)}</td>
            <td>{duration(l.p50)}</td>
            <td>{duration(l.p90)}</td>
            <td>{duration(l.p99)}</td>
            <td>{duration(l.max)}</td>
            <td>{duration(l.mean)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function HerdTable({ report }: { report: TrafficReport }): JSX.Element {
  const f = report.fanout;
  const changes = [...f.perChange].reverse().slice(0, MAX_CHANGES);
  return (
    <>
      <p class="muted small" data-testid="herd-summary">
        {f.changes} {f.changes === 1 ? 'change' : 'changes'} notified {f.notifications} {f.notifications === 1 ? 'time' : 'times'}; sessions woken per
        change: max {f.max}, mean {f.mean}, p99 {f.p99}
        {f.droppedChanges > 0 ? ` (${f.droppedChanges} older changes dropped)` : ''}
      </p>
      {changes.length === 0 ? null : (
        <table class="grid-table" data-testid="herd-table">
          <thead>
            <tr>
              <th>time</th>
              <th>zxid</th>
              <th>change</th>
              <th>paths</th>
              <th>herd factor</th>
              <th>caused by</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c, i) => (
              <tr key={`${c.time}-${i}`} data-testid="change-row" data-fanout={String(c.fanout)}>
                <td>{dateTime(c.time)}</td>
                <td class="mono">{c.zxid ?? '–'}</td>
                <td>{c.types.join(', ')}</td>
                <td class="mono" data-testid="change-paths">{c.paths.join(' ')}</td>
                <td data-testid="change-fanout">
                  <span class="bar" style={{ width: `${Math.min(160, 4 + c.fanout * 8)}px` }} /> {c.fanout}
                </td>
                <td class="mono">{c.cause === null ? '–' : `${c.cause.op} ${c.cause.path ?? ''} (conn ${c.cause.conn})`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function SlowestTable({ report }: { report: TrafficReport }): JSX.Element {
  if (report.slowest.length === 0) return <p class="muted">No replies yet.</p>;
  return (
    <table class="grid-table" data-testid="slowest-table">
      <thead>
        <tr>
          <th>latency</th>
          <th>op</th>
          <th>path</th>
          <th>session</th>
          <th>at</th>
        </tr>
      </thead>
      <tbody>
        {report.slowest.map((s, i) => (
          <tr key={i} data-testid="slow-row">
            <td>{duration(s.latencyMs)}</td>
            <td class="mono">{s.op}</td>
            <td class="mono">{s.path ?? '–'}</td>
            <td class="mono">{s.session ?? `conn ${s.conn}`}</td>
            <td>{dateTime(s.time)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
