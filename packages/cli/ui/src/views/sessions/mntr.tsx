/** The server's `mntr` figures over time: a few that tell load and health at a glance, one chart each. */
import type { JSX } from 'preact';

import type { MntrHistory } from '../../../../src/console/api-types.js';
import { LineChart, shortNumber } from '../../charts/line-chart.js';

const FIGURES: readonly { readonly key: string; readonly title: string; readonly unit: string }[] = [
  { key: 'zk_avg_latency', title: 'average latency', unit: ' ms' },
  { key: 'zk_outstanding_requests', title: 'outstanding requests', unit: '' },
  { key: 'zk_znode_count', title: 'znodes', unit: '' },
  { key: 'zk_watch_count', title: 'watches', unit: '' },
  { key: 'zk_num_alive_connections', title: 'connections', unit: '' },
];

function numberOf(value: string | number | undefined): number | null {
  if (typeof value === 'number') return value;
  if (value === undefined) return null;
  const n = Number(value);
  return value.trim() !== '' && Number.isFinite(n) ? n : null;
}

export function MntrCharts({ history }: { history: MntrHistory | undefined }): JSX.Element {
  if (history === undefined) return <p class="muted">sampling…</p>;
  if (history.samples.length === 0) return <p class="muted" data-testid="mntr-unavailable">{history.reason ?? 'no samples yet'}</p>;
  const last = history.samples[history.samples.length - 1]?.values ?? {};
  const state = last['zk_server_state'];
  const version = last['zk_version'];
  return (
    <div data-testid="mntr">
      <p class="muted small">
        {state === undefined ? null : <>state {String(state)} · </>}
        {version === undefined ? null : <>version {String(version)} · </>}
        {history.samples.length} samples since {new Date(history.samples[0]?.at ?? 0).toLocaleTimeString([], { hour12: false })}
      </p>
      <div class="charts">
        {FIGURES.map((f) => {
          const now = numberOf(last[f.key]);
          return (
            <LineChart
              key={f.key}
              minSpanMs={60_000}
              testid={`mntr-${f.key}`}
              title={`${f.title}: ${now === null ? '–' : `${shortNumber(now)}${f.unit}`}`}
              unit={f.unit}
              width={300}
              height={120}
              series={[{ name: f.key, color: '#2563eb', points: history.samples.map((s) => [s.at, numberOf(s.values[f.key])] as const) }]}
            />
          );
        })}
      </div>
    </div>
  );
}
