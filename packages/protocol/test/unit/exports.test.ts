// Pins @zkts/protocol's three entry points (the client, ./codec, ./inspect): the name lists live in
// surface/*.txt beside this file, so any change to what users can import shows up as a diff of those files.
// Imported by package name, so the vitest aliases of the subpaths are checked too.
import { fileURLToPath } from 'node:url';

import { describeSurface } from '../../../../test/support/describe-surface.js';

describeSurface(fileURLToPath(new URL('../..', import.meta.url)), fileURLToPath(new URL('./surface', import.meta.url)), {
  '.': () => import('@zkts/protocol'),
  './codec': () => import('@zkts/protocol/codec'),
  './inspect': () => import('@zkts/protocol/inspect'),
});
