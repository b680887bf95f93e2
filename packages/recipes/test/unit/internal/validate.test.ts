// The checks every recipe runs on its arguments, and kazoo's node prefix.
import { describe, expect, it } from 'vitest';

import { RecipeArgumentError } from '../../../src/errors.js';
import { kazooPrefix } from '../../../src/internal/names.js';
import { checkNodeName, checkPath } from '../../../src/internal/validate.js';

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
});
