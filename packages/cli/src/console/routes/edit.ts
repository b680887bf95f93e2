/** Writes: POST /api/create, /api/set, /api/delete, /api/acl, and GET /api/count (what a recursive delete removes). */
import type { ZkClient } from '@zkts/protocol';

import type { Route } from '../router.js';

export interface EditDeps {
  readonly client: ZkClient;
}

export function editRoutes(_deps: EditDeps): Route[] {
  return [];
}
