/**
 * A small hand-written SVG line chart for the live views: time on x, one y axis from 0 to the largest value,
 * one polyline per series (a gap where a point is null) and a dot per point. No chart library: the bundle
 * stays small, and every label is a text node.
 */
import type { JSX } from 'preact';

export interface ChartSeries {
  readonly name: string;
  /** [time ms, value] in time order; a null value breaks the line. */
  readonly points: readonly (readonly [number, number | null])[];
  readonly color: string;
  readonly dashed?: boolean;
}

export interface LineChartProps {
  readonly title: string;
  readonly series: readonly ChartSeries[];
  /** Appended to the y axis' top label (`ms`, `/s`). */
  readonly unit?: string;
  readonly width?: number;
  readonly height?: number;
  readonly testid?: string;
  /** The x axis spans at least this much (ms), so a few seconds of data sit at the right, not stretched. */
  readonly minSpanMs?: number;
  /** Points older than this much before the newest are left out (ms). */
  readonly maxSpanMs?: number;
}

/** Above this many points a series is drawn as a line only: a dot per point would be a smear (and DOM weight). */
const MAX_DOTS = 120;

const PALETTE = ['#2563eb', '#d92d20', '#039855', '#dc6803', '#7a5af8', '#0e9384', '#c11574', '#475467'];

/** A stable color per name, so an op keeps its color while others come and go. */
export function colorOf(name: string): string {
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) >>> 0;
  return PALETTE[hash % PALETTE.length] ?? '#2563eb';
}

/** 1234 → "1234", 0.25 → "0.25", 12345678 → "12.3M": short enough for an axis. */
export function shortNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${(value / 1e9).toFixed(1)}G`;
  if (abs >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (abs >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  if (Number.isInteger(value)) return String(value);
  return String(Number(abs >= 10 ? value.toFixed(1) : value.toFixed(2)));
}

function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour12: false });
}

/** A top value for the axis: a little above the maximum, rounded to 1, 2 or 5 × a power of ten. */
function niceTop(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (max <= step * power) return step * power;
  return 10 * power;
}

const PAD = { left: 44, right: 8, top: 8, bottom: 20 };

export function LineChart({ title, series: given, unit = '', width = 420, height = 150, testid, minSpanMs = 0, maxSpanMs = Infinity }: LineChartProps): JSX.Element {
  const newest = Math.max(...given.flatMap((s) => s.points.map(([t]) => t)));
  const series = given.map((s) => ({ ...s, points: s.points.filter(([t]) => t >= newest - maxSpanMs) }));
  const all = series.flatMap((s) => s.points);
  const times = all.map(([t]) => t);
  const values = all.flatMap(([, v]) => (v === null ? [] : [v]));
  const t1 = times.length === 0 ? 1 : Math.max(...times);
  const t0 = times.length === 0 ? 0 : Math.min(Math.min(...times), t1 - minSpanMs);
  const top = niceTop(values.length === 0 ? 0 : Math.max(...values));
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const x = (t: number): number => PAD.left + (t1 === t0 ? plotW : ((t - t0) / (t1 - t0)) * plotW);
  const y = (v: number): number => PAD.top + plotH - (v / top) * plotH;
  return (
    <figure class="chart" data-testid={testid} style={{ width: `${width + 14}px` }}>
      <figcaption class="chart-title">
        {title}
        {series.length < 2 ? null : (
          <span class="chart-legend">
            {series.map((s) => (
              <span key={s.name} class="legend-item">
                <span class="legend-swatch" style={{ background: s.color, opacity: s.dashed === true ? 0.6 : 1 }} />
                {s.name}
              </span>
            ))}
          </span>
        )}
      </figcaption>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title}>
        <line class="axis" x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={PAD.top + plotH} />
        <line class="axis" x1={PAD.left} y1={PAD.top + plotH} x2={PAD.left + plotW} y2={PAD.top + plotH} />
        <line class="grid" x1={PAD.left} y1={y(top / 2)} x2={PAD.left + plotW} y2={y(top / 2)} />
        <text class="tick" x={PAD.left - 4} y={PAD.top + 8} text-anchor="end">{`${shortNumber(top)}${unit}`}</text>
        <text class="tick" x={PAD.left - 4} y={y(top / 2) + 4} text-anchor="end">{shortNumber(top / 2)}</text>
        <text class="tick" x={PAD.left - 4} y={PAD.top + plotH} text-anchor="end">0</text>
        {times.length === 0 ? (
          <text class="chart-empty" x={PAD.left + plotW / 2} y={PAD.top + plotH / 2} text-anchor="middle">no data yet</text>
        ) : (
          <>
            <text class="tick" x={PAD.left} y={height - 4}>{clock(t0)}</text>
            <text class="tick" x={PAD.left + plotW} y={height - 4} text-anchor="end">{clock(t1)}</text>
          </>
        )}
        {series.map((s) => (
          <g key={s.name} data-series={s.name}>
            {segments(s.points).map((segment, i) => (
              <polyline
                key={i}
                fill="none"
                stroke={s.color}
                stroke-width={1.5}
                stroke-dasharray={s.dashed === true ? '4 3' : undefined}
                points={segment.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}
              />
            ))}
            {s.points.map(([t, v]) =>
              v === null || s.points.length > MAX_DOTS ? null : (
                <circle key={t} class="point" data-testid="chart-point" cx={x(t)} cy={y(v)} r={2} fill={s.color}>
                  <title>{`${s.name} ${clock(t)}: ${shortNumber(v)}${unit}`}</title>
                </circle>
              ),
            )}
          </g>
        ))}
      </svg>
    </figure>
  );
}

/** The runs of non-null points: a null (no reply in that second) is a gap, not a drop to zero. */
function segments(points: readonly (readonly [number, number | null])[]): [number, number][][] {
  const out: [number, number][][] = [];
  let current: [number, number][] = [];
  for (const [t, v] of points) {
    if (v === null) {
      if (current.length > 0) out.push(current);
      current = [];
    } else current.push([t, v]);
  }
  if (current.length > 0) out.push(current);
  return out;
}
