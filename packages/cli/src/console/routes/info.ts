/** GET /api/info: what the page needs before anything else (the server, the mode, the CSRF secret, features). */
import type { ZkClient } from '@zkts/protocol';

import { hexId } from '../../ids.js';
import type { Info } from '../api-types.js';
import type { Route } from '../router.js';

export interface InfoDeps {
  readonly client: ZkClient;
  readonly server: string;
  readonly readOnly: boolean;
  readonly csrf: string;
  readonly version: string;
  readonly proxy: () => string | null;
  readonly dataDir: string | null;
}

export function infoRoutes(deps: InfoDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/api/info',
      handle: async (): Promise<Info> => ({
        server: deps.server,
        readOnly: deps.readOnly,
        csrf: deps.csrf,
        version: deps.version,
        session: { id: hexId(deps.client.sessionId), timeoutMs: deps.client.negotiatedTimeout, state: deps.client.state },
        proxy: deps.proxy(),
        dataDir: deps.dataDir,
      }),
    },
  ];
}
