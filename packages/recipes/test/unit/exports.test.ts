import { describe, expect, it } from 'vitest';

import * as recipes from '../../src/index.js';
import { LockBusyError, LockNotHeldError, RecipeError } from '../../src/index.js';

// Pins the runtime surface: adding or removing an export is a decision, not an accident.
describe('@zkts/recipes exports', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(recipes).sort()).toEqual(
      [
        'Barrier', 'DoubleBarrier', 'ExclusiveLock', 'LeaderElection', 'LockBusyError', 'LockLostError', 'LockNotHeldError',
        'LockUpgradeError', 'MultiLock', 'Mutex', 'Queue', 'ReadLock', 'ReadWriteLock', 'RecipeArgumentError', 'RecipeClosedError',
        'RecipeError', 'Semaphore', 'WriteLock',
      ].sort(),
    );
  });

  it('errors carry a stable code and name, and instanceof works by brand', () => {
    const e = new LockBusyError('busy');
    expect(e.code).toBe('LOCK_BUSY');
    expect(e.name).toBe('LockBusyError');
    expect(e).toBeInstanceOf(RecipeError);
    expect(e).toBeInstanceOf(LockBusyError);
    expect(e).not.toBeInstanceOf(LockNotHeldError);
    expect(new Error('x')).not.toBeInstanceOf(RecipeError);
  });
});
