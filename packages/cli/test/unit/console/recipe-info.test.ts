import type { RecipeInspection } from '@zkts/recipes';
import { describe, expect, it } from 'vitest';

import { recipeInfo } from '../../../src/console/routes/recipes.js';

describe('recipeInfo (GET /api/recipe)', () => {
  it('maps an inspection to the JSON contract: sessions as 0x hex, absent facts as null', () => {
    const found: RecipeInspection = {
      kind: 'mutex',
      path: '/locks/job',
      libraries: ['curator', 'zkts'],
      title: 'Mutex: held, 1 waiting',
      summary: [['holder', '10.0.0.1'], ['waiting', '1']],
      members: [
        {
          role: 'holder', name: '_c_a-lock-0000000000', path: '/locks/job/_c_a-lock-0000000000', sequence: 0, owner: '10.0.0.1',
          library: 'curator', session: 0x10000b577c60002n, since: 1_700_000_000_000, details: [['holds for', '3 s']],
        },
        {
          role: 'item', name: 'x', path: '/locks/job/x', sequence: undefined, owner: undefined,
          library: undefined, session: undefined, since: undefined, details: [],
        },
      ],
    };
    const info = recipeInfo('/locks/job', found);
    expect(info).toEqual({
      kind: 'mutex', path: '/locks/job', libraries: ['curator', 'zkts'], title: 'Mutex: held, 1 waiting',
      summary: [['holder', '10.0.0.1'], ['waiting', '1']],
      members: [
        {
          role: 'holder', name: '_c_a-lock-0000000000', path: '/locks/job/_c_a-lock-0000000000', sequence: 0, owner: '10.0.0.1',
          library: 'curator', session: '0x10000b577c60002', since: 1_700_000_000_000, details: [['holds for', '3 s']],
        },
        { role: 'item', name: 'x', path: '/locks/job/x', sequence: null, owner: null, library: null, session: null, since: null, details: [] },
      ],
    });
    // Survives JSON: no bigint, no undefined left anywhere.
    expect(JSON.parse(JSON.stringify(info))).toEqual(info);
  });

  it('answers kind null for a node of no known layout', () => {
    expect(recipeInfo('/plain', undefined)).toEqual({ kind: null, path: '/plain', libraries: [], title: '', summary: [], members: [] });
  });
});
