/** Live updates: GET /api/events (Server-Sent Events of changes anywhere in the tree). */
import type { ZkClient } from '@zkts/protocol';

import type { Route } from '../router.js';

export interface EventsDeps {
  readonly client: ZkClient;
}

export function eventsRoutes(_deps: EventsDeps): Route[] {
  return [];
}
