// A hand-written SVG chart of one run: one small horizontal bar panel per headline figure, every client
// that measured it as a bar (zkts highlighted), the value printed at the end of each bar.
import { LOCK_WORKLOADS } from './workloads.js';
import { format, ROWS, value } from './report.js';
import type { ClientId, ResultGrid } from './report.js';

const COLORS: Record<ClientId, string> = {
  zkts: '#2563eb',
  nzk: '#9ca3af',
  native: '#a8a29e',
  java: '#f59e0b',
  curator: '#d97706',
  raw: '#d1d5db',
};
const ORDER: readonly ClientId[] = ['zkts', 'nzk', 'native', 'java', 'curator', 'raw'];
/** In the lock panels the bars are lock implementations, not clients. */
const LOCK_LABELS: Partial<Record<ClientId, string>> = {
  zkts: 'zkts Mutex',
  nzk: "seeds' lock (nzk)",
  curator: 'Curator InterProcessMutex',
};

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function chart(grid: ResultGrid, labels: Record<ClientId, string>, title: string, subtitle: string): string {
  const panelW = 470;
  const barH = 16;
  const gap = 4;
  const labelW = 170;
  const cols = 2;
  const panels = ROWS.map((row) => ({
    row,
    bars: ORDER.map((c) => ({ client: c, v: value(grid, row.workload, c, row.metric) })).filter(
      (b): b is { client: ClientId; v: number } => b.v !== undefined,
    ),
  }));
  const panelH = (n: number): number => 30 + n * (barH + gap) + 10;
  const maxBars = Math.max(1, ...panels.map((p) => p.bars.length));
  const cellH = panelH(maxBars);
  const top = 64;
  const width = cols * panelW + (cols + 1) * 10;
  const height = top + Math.ceil(panels.length / cols) * cellH + 20;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="10" y="24" font-size="16" font-weight="bold">${escape(title)}</text>`,
    `<text x="10" y="44" fill="#4b5563">${escape(subtitle)}</text>`,
  ];
  panels.forEach((p, i) => {
    const x0 = 10 + (i % cols) * (panelW + 10);
    const y0 = top + Math.floor(i / cols) * cellH;
    const better = p.row.better === 'higher' ? 'higher is better' : 'lower is better';
    out.push(`<rect x="${x0}" y="${y0}" width="${panelW}" height="${cellH - 8}" fill="#f9fafb" stroke="#e5e7eb"/>`);
    out.push(`<text x="${x0 + 8}" y="${y0 + 18}" font-weight="bold">${escape(p.row.label)} <tspan font-weight="normal" fill="#6b7280">(${escape(p.row.unit)}, ${better})</tspan></text>`);
    const max = Math.max(...p.bars.map((b) => b.v), 1e-9);
    const zkts = p.bars.find((b) => b.client === 'zkts')?.v;
    const isLock = (LOCK_WORKLOADS as readonly string[]).includes(p.row.workload);
    const span = panelW - labelW - 120;
    p.bars.forEach((b, j) => {
      const y = y0 + 28 + j * (barH + gap);
      const w = Math.max(1, (b.v / max) * span);
      const weight = b.client === 'zkts' ? ' font-weight="bold"' : '';
      const name = isLock ? (LOCK_LABELS[b.client] ?? labels[b.client]) : labels[b.client];
      // Each peer's bar also carries the ratio the table prints: zkts / peer.
      const ratio = b.client !== 'zkts' && zkts !== undefined && b.v !== 0 ? `(zkts ×${(zkts / b.v).toFixed(2)})` : '';
      out.push(`<text x="${x0 + labelW - 6}" y="${y + barH - 4}" text-anchor="end"${weight}>${escape(name)}</text>`);
      out.push(`<rect x="${x0 + labelW}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${COLORS[b.client]}"/>`);
      out.push(`<text x="${x0 + labelW + w + 4}" y="${y + barH - 4}"${weight}>${escape(format(b.v))}<tspan dx="6" fill="#6b7280" font-weight="normal">${escape(ratio)}</tspan></text>`);
    });
    if (p.bars.length === 0) out.push(`<text x="${x0 + 8}" y="${y0 + 40}" fill="#9ca3af">not measured</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
