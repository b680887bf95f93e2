/** GET /api/recipe: the recipe a node's layout shows (@zkts/recipes inspectRecipe). */
import type { ZkClient } from '@zkts/protocol';

import type { Route } from '../router.js';

export interface RecipeDeps {
  readonly client: ZkClient;
}

export function recipeRoutes(_deps: RecipeDeps): Route[] {
  return [];
}
