import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { describeSurface } from '../../../../test/support/describe-surface.js';

// Pins @zkts/testkit's entry point: the name list lives in surface/root.txt beside this file.
describeSurface(fileURLToPath(new URL('../..', import.meta.url)), fileURLToPath(new URL('./surface', import.meta.url)), {
  '.': () => import('@zkts/testkit'),
});

describe('@zkts/testkit entry', () => {
  it('never imports vitest or testcontainers statically from the library', () => {
    const dir = fileURLToPath(new URL('../../src/', import.meta.url));
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(`${dir}${file}`, 'utf8');
      expect(text, file).not.toMatch(/from 'vitest/);
      // testcontainers is optional: only `import type` (erased) and a dynamic import() are allowed.
      expect(text.replace(/import type [^;]+;/g, ''), file).not.toMatch(/from 'testcontainers'/);
    }
  });
});
