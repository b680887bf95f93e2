// Pins @zkts/recipes' entry point: the name list lives in surface/root.txt beside this file, so adding or
// removing an export is a decision visible as a diff, not an accident.
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { describeSurface } from '../../../../test/support/describe-surface.js';
import { inspectRecipe, LockBusyError, LockNotHeldError, RecipeError } from '../../src/index.js';

describeSurface(fileURLToPath(new URL('../..', import.meta.url)), fileURLToPath(new URL('./surface', import.meta.url)), {
  '.': () => import('@zkts/recipes'),
});

describe('@zkts/recipes exports', () => {
  it('errors carry a stable code and name, and instanceof works by brand', () => {
    const e = new LockBusyError('busy');
    expect(e.code).toBe('LOCK_BUSY');
    expect(e.name).toBe('LockBusyError');
    expect(e).toBeInstanceOf(RecipeError);
    expect(e).toBeInstanceOf(LockBusyError);
    expect(e).not.toBeInstanceOf(LockNotHeldError);
    expect(new Error('x')).not.toBeInstanceOf(RecipeError);
  });

  it('inspectRecipe is the inspect family\'s one value: a function of (client, path, options)', () => {
    expect(typeof inspectRecipe).toBe('function');
    expect(inspectRecipe.length).toBe(2);
  });
});
