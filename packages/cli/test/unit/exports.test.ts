// Pins that the `zkts` package has no importable entry point: it is its bin (package.json `bin`, no `exports`),
// so `import 'zkts'` fails instead of yielding an empty module. Exporting something later is a visible decision.
import { fileURLToPath } from 'node:url';

import { describeSurface } from '../../../../test/support/describe-surface.js';

describeSurface(fileURLToPath(new URL('../..', import.meta.url)), fileURLToPath(new URL('./surface', import.meta.url)), {});
