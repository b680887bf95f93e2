// Traffic analysis for `decode --stats` and `proxy --stats`.
export { TrafficStats } from './collector.js';
export { buildReport } from './report.js';
export type { StatsReport, ChangeReport, SessionTimeline } from './report.js';
export { formatReport } from './format.js';
export { nearestRank, summarize, type LatencySummary } from './percentiles.js';
