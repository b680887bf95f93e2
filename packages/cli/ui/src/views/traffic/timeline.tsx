/**
 * A timeline per session as the proxy saw it: one lane each, a mark per event (connect, established, pings,
 * closeSession, connection closed) on a time axis shared by every lane, and the events in words below.
 */
import type { JSX } from 'preact';

import type { TrafficReport, TrafficSession } from '../../../../src/console/api-types.js';
import { duration } from '../../charts/format.js';

const LANE_W = 520;
const MAX_SESSIONS = 30;

const OUTCOME_CLASS: Readonly<Record<string, string>> = { open: 'ok', closed: 'muted', expired: 'bad', disconnected: 'warn' };

function Lane({ session, span }: { session: TrafficSession; span: number }): JSX.Element {
  const x = (t: number): number => 6 + (span <= 0 ? 0 : (t / span) * (LANE_W - 12));
  const first = session.events[0]?.t ?? 0;
  const last = session.events[session.events.length - 1]?.t ?? 0;
  return (
    <svg width={LANE_W} height={18} viewBox={`0 0 ${LANE_W} 18`} class="lane">
      <line class="lane-line" x1={x(first)} y1={9} x2={session.outcome === 'open' ? LANE_W - 6 : x(last)} y2={9} />
      {session.events.map((e, i) => (
        <circle key={i} class="lane-mark" data-testid="timeline-mark" cx={x(e.t)} cy={9} r={4}>
          <title>{`+${duration(e.t)} conn ${e.conn}: ${e.what}`}</title>
        </circle>
      ))}
    </svg>
  );
}

export function SessionTimelines({ report }: { report: TrafficReport }): JSX.Element {
  const span = Math.max(report.span.durationMs, ...report.sessions.flatMap((s) => s.events.map((e) => e.t)));
  const sessions = report.sessions.slice(-MAX_SESSIONS);
  if (sessions.length === 0) return <p class="muted">No sessions yet.</p>;
  return (
    <table class="grid-table" data-testid="session-timelines">
      <thead>
        <tr>
          <th>session</th>
          <th>outcome</th>
          <th>requests</th>
          <th>reconnects</th>
          <th>timeline (0 – {duration(span)})</th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((s) => (
          <tr key={s.session} data-testid="timeline-row" data-session={s.session}>
            <td class="mono">{s.session}</td>
            <td>
              <span class={`badge ${OUTCOME_CLASS[s.outcome] ?? ''}`}>{s.outcome}</span>
            </td>
            <td>{s.requests}</td>
            <td>{s.reconnects}</td>
            <td>
              <Lane session={s} span={span} />
              <details>
                <summary class="small">{s.events.length} events</summary>
                <ol class="events small">
                  {s.events.map((e, i) => (
                    <li key={i}>
                      <span class="mono">+{duration(e.t)}</span> conn {e.conn}: {e.what}
                    </li>
                  ))}
                </ol>
              </details>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
