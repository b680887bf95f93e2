/** Reading the tree: GET /api/children, /api/node, /api/search. */
import type { ZkClient } from '@zkts/protocol';

import type { Route } from '../router.js';

export interface TreeDeps {
  readonly client: ZkClient;
}

export function treeRoutes(_deps: TreeDeps): Route[] {
  return [];
}
