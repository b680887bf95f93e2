// Pins the `zkts` package's entry point (today an empty module: the package is its bin, not a library), so
// exporting something from it is a visible decision: the list lives in surface/root.txt beside this file.
import { fileURLToPath } from 'node:url';

import { describeSurface } from '../../../../test/support/describe-surface.js';

describeSurface(fileURLToPath(new URL('../..', import.meta.url)), fileURLToPath(new URL('./surface', import.meta.url)), {
  '.': () => import('../../src/index.js'),
});
