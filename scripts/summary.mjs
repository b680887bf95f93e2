// Prints vitest's JSON report as the one plain line CI reads: `N passed, N failed[, N skipped]`.
// Skipped tests are listed by name, so a skip is never silent.
import { readFileSync } from 'node:fs';

const file = process.argv[2];
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  console.log(`summary: no vitest report at ${file} (${err.message})`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
let passed = 0;
let failed = 0;
let skipped = 0;
const skippedNames = [];
for (const suite of report.testResults ?? []) {
  // A file that failed without a failed test (it did not load, or a hook threw and its tests were skipped) is a
  // failure of its own.
  if (suite.status === 'failed' && !(suite.assertionResults ?? []).some((t) => t.status === 'failed')) failed++;
  for (const t of suite.assertionResults ?? []) {
    if (t.status === 'passed') passed++;
    else if (t.status === 'failed') failed++;
    else {
      skipped++;
      skippedNames.push(t.fullName);
    }
  }
}
for (const name of skippedNames) console.log(`skipped: ${name}`);
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
