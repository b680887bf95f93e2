// The table of a flake hunt: every test that failed in any of the vitest JSON reports in a directory, with how
// many runs it failed in and the first line of its first error. Also counts files that failed to load or in a hook.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (dir === undefined) {
  console.error('usage: node scripts/flake-table.mjs DIR (a directory of vitest JSON reports)');
  process.exit(2);
}
const reports = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
const failures = new Map();
let runsWithFailure = 0;
for (const file of reports) {
  let report;
  try {
    report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  } catch {
    failures.set(`(report ${file} unreadable: the run crashed)`, { runs: [file], error: '' });
    runsWithFailure++;
    continue;
  }
  let failedHere = false;
  for (const suite of report.testResults ?? []) {
    const where = suite.name.replace(`${process.cwd()}/`, '');
    const tests = suite.assertionResults ?? [];
    const failed = tests.filter((t) => t.status === 'failed').map((t) => ({ name: `${where} > ${t.fullName}`, error: t.failureMessages?.[0] ?? '' }));
    // A file that failed without a failed test: it did not load, or a hook threw (its tests show as skipped).
    if (suite.status === 'failed' && failed.length === 0) failed.push({ name: `${where} (failed to load or in a hook)`, error: suite.message ?? '' });
    for (const { name, error } of failed) {
      failedHere = true;
      const entry = failures.get(name) ?? { runs: [], error: error.split('\n').find((l) => l.trim() !== '') ?? '' };
      entry.runs.push(file.replace(/\.json$/, ''));
      failures.set(name, entry);
    }
  }
  if (failedHere) runsWithFailure++;
}
console.log(`\n${reports.length} runs, ${runsWithFailure} with a failure, ${failures.size} distinct failing tests`);
if (failures.size === 0) process.exit(0);
const rows = [...failures.entries()].sort((a, b) => b[1].runs.length - a[1].runs.length);
console.log('\nfailed  test  (runs)  first error line');
for (const [name, { runs, error }] of rows) {
  console.log(`${String(runs.length).padStart(4)}×  ${name}  (${runs.join(', ')})\n        ${error.slice(0, 200)}`);
}
