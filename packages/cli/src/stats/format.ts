/** The stats report as text: short sections, widest facts first, times relative to the first frame. */
import type { StatsReport } from './report.js';

const TOP = 10;

function pad(text: string | number, width: number): string {
  return String(text).padStart(width);
}

function seconds(ms: number): string {
  return `+${(ms / 1000).toFixed(3)}s`;
}

function latencySection(report: StatsReport): string[] {
  const ops = Object.keys(report.latency);
  if (ops.length === 0) return ['latency: no request was answered'];
  const width = Math.max(8, ...ops.map((o) => o.length));
  const lines = [`latency (ms)  ${''.padEnd(width - 12)}${['count', 'p50', 'p90', 'p99', 'max', 'mean'].map((h) => pad(h, 9)).join('')}`];
  for (const op of ops) {
    const s = report.latency[op];
    if (s === undefined) continue;
    lines.push(`  ${op.padEnd(width)}${[s.count, s.p50.toFixed(3), s.p90.toFixed(3), s.p99.toFixed(3), s.max.toFixed(3), s.mean.toFixed(3)].map((v) => pad(v, 9)).join('')}`);
  }
  const sampled = ops.filter((op) => report.latency[op]?.sampled === true);
  if (sampled.length > 0) {
    const sizes = [...new Set(sampled.map((op) => report.latency[op]?.samples))].join('/');
    lines.push(`  (p50/p90/p99 of ${sampled.join(', ')} are estimates from a uniform sample of ${sizes} latencies; count, max and mean are exact)`);
  }
  return lines;
}

function fanoutSection(report: StatsReport): string[] {
  const f = report.fanout;
  if (f.changes === 0) return ['watch fan-out: no watch fired'];
  const histogram = new Map<number, number>();
  for (const c of f.perChange) histogram.set(c.fanout, (histogram.get(c.fanout) ?? 0) + 1);
  const lines = [
    `watch fan-out: ${f.changes} change(s) sent ${f.notifications} notification(s); sessions woken per change: max ${f.max}, mean ${f.mean}, p50 ${f.p50}`,
    `  histogram (sessions woken × changes): ${[...histogram].sort((a, b) => a[0] - b[0]).map(([n, count]) => `${n}×${count}`).join(' ')}`,
  ];
  const origin = report.span.start ?? 0;
  const top = [...f.perChange].sort((a, b) => b.fanout - a.fanout || a.time - b.time).slice(0, TOP);
  for (const c of top.sort((a, b) => a.time - b.time)) {
    const cause = c.cause === null ? '' : `  (${c.cause.op} ${c.cause.path ?? ''} by #${c.cause.conn})`;
    lines.push(`  ${seconds(c.time - origin)} ${c.zxid === null ? '' : `zxid ${c.zxid} `}${c.types.join('+')} ${c.paths.join(' ')} woke ${c.fanout} session(s)${cause}`);
  }
  if (f.droppedChanges > 0) lines.push(`  (${f.droppedChanges} older change(s) not kept)`);
  return lines;
}

function rateSection(report: StatsReport): string[] {
  const { buckets, bucketMs, peakPerSecond } = report.rate;
  if (buckets.length === 0) return [];
  const max = Math.max(...buckets.map((b) => b.requests), 1);
  const lines = [`request rate (per ${bucketMs / 1000} s, peak ${peakPerSecond}/s):`];
  for (const b of buckets) lines.push(`  ${seconds(b.t).padStart(10)} ${pad(b.requests, 7)} ${'#'.repeat(Math.round((b.requests / max) * 40))}`);
  return lines;
}

function sessionSection(report: StatsReport): string[] {
  const lines = [`sessions (${report.sessions.length}):`];
  const detailed = report.sessions.length <= TOP;
  for (const s of report.sessions) {
    lines.push(
      `  ${s.session} ${s.outcome}, ${s.connections} connection(s)${s.reconnects > 0 ? ` (${s.reconnects} reconnect(s))` : ''}, ` +
        `timeout ${s.timeoutMs ?? '?'} ms, ${s.requests} request(s), ${s.pings} ping(s)`,
    );
    if (detailed || s.outcome === 'expired' || s.reconnects > 0) for (const e of s.events) lines.push(`    ${seconds(e.t)} #${e.conn} ${e.what}`);
  }
  return lines;
}

export function formatReport(report: StatsReport): string {
  const t = report.totals;
  const origin = report.span.start ?? 0;
  const lines = [
    `traffic: ${t.connections} connection(s), ${t.sessions} session(s), ${t.requests} request(s), ${t.replies} repl(ies), ${t.events} notification(s), ` +
      `${t.pings} ping(s) in ${(report.span.durationMs / 1000).toFixed(3)} s${t.decodeErrors > 0 ? `; ${t.decodeErrors} undecodable frame(s)` : ''}` +
      `${t.droppedConnections === undefined ? '' : `; ${t.droppedConnections} older closed connection(s) counted but left out of the sessions below`}`,
    '',
    ...latencySection(report),
    '',
    report.errors.length === 0 ? 'errors: none' : 'errors:',
    ...report.errors.map((e) => `  ${e.err.padEnd(24)} ${pad(e.count, 6)}  (${Object.entries(e.ops).map(([op, n]) => `${op} ${n}`).join(', ')})`),
    '',
    ...fanoutSection(report),
    '',
    'slowest requests:',
    ...report.slowest.map((s) => `  ${pad(s.latencyMs.toFixed(3), 10)} ms  #${s.conn} ${s.session ?? ''} ${s.op} ${s.path ?? ''} xid=${s.xid ?? '?'} at ${seconds(s.time - origin)}`),
    '',
    ...rateSection(report),
    '',
    ...sessionSection(report),
  ];
  return lines.join('\n');
}
