// The observability guide's OpenTelemetry tables are the package's reference, so they are checked against the
// code: every metric the package creates is a row with the same instrument and unit (and no row names a metric
// that does not exist), and every attribute key the package writes is a row of the attributes table (and no row
// names one it never writes).
import { readFileSync } from 'node:fs';

import { createNoopMeter, type Meter } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';

import { createInstruments } from '../../src/instruments.js';
import { ATTR, METRIC } from '../../src/names.js';

const guide = readFileSync(new URL('../../../../docs/guides/observability.md', import.meta.url), 'utf8');
const section = (() => {
  const start = guide.indexOf('\n## OpenTelemetry\n');
  if (start < 0) throw new Error('docs/guides/observability.md has no "## OpenTelemetry" section');
  const next = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, next < 0 ? undefined : next);
})();

/** The rows of the table under `### heading`, as cells. */
function table(heading: string): string[][] {
  const start = section.indexOf(`\n### ${heading}\n`);
  if (start < 0) throw new Error(`no "### ${heading}" in the OpenTelemetry section`);
  const rows: string[][] = [];
  for (const line of section.slice(start).split('\n').slice(2)) {
    if (line.startsWith('### ')) break;
    if (!line.startsWith('|') || /^\|[-|\s]+\|$/.test(line)) continue;
    rows.push(line.slice(1, -1).split('|').map((c) => c.trim()));
  }
  return rows.slice(1);
}

const codes = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');

/** What createInstruments asks the meter for: name → instrument and unit. */
function created(): Map<string, { instrument: string; unit: string | undefined }> {
  const noop = createNoopMeter();
  const out = new Map<string, { instrument: string; unit: string | undefined }>();
  const record = (instrument: string) => (name: string, options?: { unit?: string }) => {
    out.set(name, { instrument, unit: options?.unit });
  };
  const meter: Meter = {
    createHistogram: (name, options) => (record('Histogram')(name, options), noop.createHistogram(name)),
    createCounter: (name, options) => (record('Counter')(name, options), noop.createCounter(name)),
    createUpDownCounter: (name, options) => (record('UpDownCounter')(name, options), noop.createUpDownCounter(name)),
    createGauge: (name, options) => (record('Gauge')(name, options), noop.createGauge(name)),
    createObservableGauge: (name, options) => (record('ObservableGauge')(name, options), noop.createObservableGauge(name)),
    createObservableCounter: (name, options) => (record('ObservableCounter')(name, options), noop.createObservableCounter(name)),
    createObservableUpDownCounter: (name, options) => (record('ObservableUpDownCounter')(name, options), noop.createObservableUpDownCounter(name)),
    addBatchObservableCallback: () => undefined,
    removeBatchObservableCallback: () => undefined,
  };
  createInstruments(meter).close();
  return out;
}

describe('the OpenTelemetry section of docs/guides/observability.md', () => {
  it('lists every metric with its instrument and unit, and no other', () => {
    const rows = new Map(table('Metrics').map((cells) => [codes(cells[0] ?? '')[0] ?? '', { instrument: cells[1], unit: codes(cells[2] ?? '')[0] }]));
    const made = created();
    expect([...rows.keys()].sort()).toEqual([...made.keys()].sort());
    expect([...made.keys()].sort()).toEqual(Object.values(METRIC).sort());
    for (const [name, { instrument, unit }] of made) expect(rows.get(name), name).toEqual({ instrument, unit });
  });

  it('lists every attribute key the package writes, and no other', () => {
    const documented = table('Attributes').flatMap((cells) => codes(cells[0] ?? ''));
    expect([...new Set(documented)].sort()).toEqual(Object.values(ATTR).sort());
  });

  it("names each metric's attributes among the documented ones", () => {
    const keys = new Set<string>(Object.values(ATTR));
    for (const cells of table('Metrics')) for (const key of codes(cells[3] ?? '')) expect(keys.has(key), `${cells[0]}: ${key}`).toBe(true);
  });
});
