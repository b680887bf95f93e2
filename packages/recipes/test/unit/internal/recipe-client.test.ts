import { describe, expect, it } from 'vitest';

import { createClient, type ZkClient } from '@zkts/protocol';

import type { RecipeClient } from '../../../src/index.js';

// Compile-time: a real ZkClient is a RecipeClient (tsc checks this file). Runtime: createClient does no I/O.
describe('RecipeClient', () => {
  it('is satisfied by @zkts/protocol ZkClient', async () => {
    const client: ZkClient = createClient('127.0.0.1:1');
    const asRecipe: RecipeClient = client;
    expect(asRecipe.sessionId).toBe(0n);
    await client.close();
  });
});
