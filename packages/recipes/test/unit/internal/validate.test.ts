// The checks every recipe runs on its arguments, and kazoo's node prefix.
import { InvalidArgumentError } from '@zkts/protocol';
import { describe, expect, it, vi } from 'vitest';

import { RecipeArgumentError } from '../../../src/errors.js';
import { kazooPrefix } from '../../../src/internal/names.js';
import { checkNodeName, checkOptions, checkPath, checkWait, knownOptions, MAX_TIMEOUT_MS, rules } from '../../../src/internal/validate.js';

describe('names and checks', () => {
  it("kazoo's prefix is the uuid's 32 hex digits", () => {
    expect(kazooPrefix('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe('0f8fad5bd9cb469fa16570867728950e');
  });

  it('paths and node names: RecipeArgumentError (INVALID_USE) with the reason', () => {
    expect(() => checkPath('/a/b')).not.toThrow();
    for (const bad of ['a', '/a/', '//a', '/a/./b']) expect(() => checkPath(bad), bad).toThrow(RecipeArgumentError);
    expect(() => checkNodeName('id', 'worker-1')).not.toThrow();
    for (const bad of ['', 'a/b', '.', '..', 'a\u0000b', 42]) {
      expect(() => checkNodeName('id', bad), String(bad)).toThrow(expect.objectContaining({ code: 'INVALID_USE' }));
    }
  });

  it('a wait is at most what a timer can express; fractions and 0 are fine', () => {
    for (const good of [0, 0.5, 1, MAX_TIMEOUT_MS]) expect(() => checkWait('w', { timeout: good })).not.toThrow();
    expect(() => checkWait('w', { timeout: MAX_TIMEOUT_MS + 1 })).toThrow(/w: timeout must be a number of ms in 0\.\.2147483647, got 2147483648/);
  });

  it("a near miss is protocol's verdict as a RecipeArgumentError (cause: protocol's error); undefined values are absent", () => {
    const table = { reentrant: rules.boolean };
    const error = (() => {
      try {
        checkOptions<{ reentrant?: boolean }>('Door', { Reentrant: true } as { reentrant?: boolean }, table);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(RecipeArgumentError);
    expect((error as Error).message).toBe("unknown option 'Reentrant' of Door: did you mean 'reentrant'?");
    expect((error as Error).cause).toBeInstanceOf(InvalidArgumentError);
    expect(() => checkOptions('Door', { reentrant: undefined }, table)).not.toThrow();
  });

  it('knownOptions hands on only the keys that have a rule (their unknown ones were warned about already)', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      expect(knownOptions({ reentrant: true, other: 1 } as { reentrant: boolean }, { reentrant: rules.boolean })).toEqual({ reentrant: true });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
