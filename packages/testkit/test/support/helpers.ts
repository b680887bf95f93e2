// Test-side helpers (they import vitest, so they stay out of the library entry).
import { inject } from 'vitest';

import './provided.js';

/** The connect string of the shared server started by the integration project's global setup. */
export function sharedConnectString(): string {
  return inject('zkConnectString');
}

/** The id of this test run: every JVM the testkit starts during it carries `-Dzkts.testkit.run=<id>`. */
export function testRunId(): string {
  return inject('zkTestkitRun');
}
