// Pins @zkts/opentelemetry's entry point: the name list lives in surface/root.txt beside this file, so adding or
// removing an export is a decision visible as a diff, not an accident. The version the instrumentation scope
// reports is the package's.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { describeSurface } from '../../../../test/support/describe-surface.js';
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from '../../src/index.js';

describeSurface(fileURLToPath(new URL('../..', import.meta.url)), fileURLToPath(new URL('./surface', import.meta.url)), {
  '.': () => import('@zkts/opentelemetry'),
});

describe('@zkts/opentelemetry instrumentation scope', () => {
  it("is the package's name and version", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
    expect(INSTRUMENTATION_NAME).toBe(pkg.name);
    expect(INSTRUMENTATION_VERSION).toBe(pkg.version);
  });
});
