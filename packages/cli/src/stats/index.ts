// Traffic analysis for `decode --stats` and `proxy --stats`.
export { TrafficStats, DEFAULT_MAX_CLOSED_CONNECTIONS, DEFAULT_MAX_SAMPLES_PER_OP, type TrafficStatsOptions } from './collector.js';
export { buildReport } from './report.js';
export type { StatsReport, ChangeReport, SessionTimeline } from './report.js';
export { formatReport } from './format.js';
export { nearestRank, summarize, type LatencySummary } from './percentiles.js';
export { LatencySamples } from './reservoir.js';
