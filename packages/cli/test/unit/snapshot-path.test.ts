/**
 * `zkts snapshot --path P` when P is not in the snapshot: said on stderr with exit 2, instead of an empty
 * listing that reads as "P has no nodes". On the committed fixture a real server wrote.
 */
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { snapshot } from '../../src/commands/snapshot.js';
import { ExitCode } from '../../src/exit-codes.js';
import { jsonLines } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

const FIXTURES = fileURLToPath(new URL('../../../protocol/test/fixtures/persistence/', import.meta.url));

describe('zkts snapshot --path', () => {
  it('exits 2 naming a path that is not in the snapshot, and still prints the ones that are', async () => {
    const missing = await runInProcess([snapshot], ['snapshot', FIXTURES, '--path', '/no/such']);
    expect(missing.code).toBe(ExitCode.NO_NODE);
    expect(missing.stdout).not.toMatch(/^\/no\/such/m);
    expect(missing.stderr).toMatch(/^zkts: snapshot: --path \/no\/such: not in the snapshot \S+snapshot\.[0-9a-f]+\n$/);

    const mixed = await runInProcess([snapshot], ['--json', 'snapshot', FIXTURES, '--path', '/app', '--path', '/gone']);
    expect(mixed.code).toBe(ExitCode.NO_NODE);
    expect(jsonLines(mixed.stdout).filter((r) => r['type'] === 'node').map((r) => r['path'])).toContain('/app');
    expect(JSON.parse(mixed.stderr)).toMatchObject({ error: { code: 'NO_NODE', exitCode: 2, missing: ['/gone'] } });

    // Present paths, and the root, are no error.
    expect((await runInProcess([snapshot], ['snapshot', FIXTURES, '--path', '/app/', '--path', '/'])).code).toBe(ExitCode.OK);
  });
});
