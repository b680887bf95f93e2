import { describe, expect, it } from 'vitest';

import { createMode } from '../../src/commands/create.js';

describe('create flags', () => {
  it('map to the create modes', () => {
    expect(createMode(false, false, false, undefined)).toBe('persistent');
    expect(createMode(false, true, false, undefined)).toBe('persistent-sequential');
    expect(createMode(true, false, false, undefined)).toBe('ephemeral');
    expect(createMode(true, true, false, undefined)).toBe('ephemeral-sequential');
    expect(createMode(false, false, true, undefined)).toBe('container');
    expect(createMode(false, false, false, 1000)).toBe('persistent-ttl');
    expect(createMode(false, true, false, 1000)).toBe('persistent-sequential-ttl');
  });

  it('reject combinations ZooKeeper has no mode for', () => {
    expect(() => createMode(true, false, true, undefined)).toThrow('-c (container) cannot be combined with -e, -s or --ttl');
    expect(() => createMode(false, true, true, undefined)).toThrow('-c (container)');
    expect(() => createMode(false, false, true, 5)).toThrow('-c (container)');
    expect(() => createMode(true, false, false, 5)).toThrow('--ttl cannot be combined with -e');
  });
});
