/** Live updates: GET /api/events (Server-Sent Events of changes anywhere in the tree, see event-stream.ts). */
import type { ZkClient } from '@zkts/protocol';

import { changeHubFor } from '../change-hub.js';
import { EventStream, type EventStreamOptions } from '../event-stream.js';
import type { Route } from '../router.js';

/** How long a new page waits for the watch before it is told the state anyway (it then shows it). */
const ARM_WAIT_MS = 5000;

export interface EventsDeps {
  readonly client: ZkClient;
  readonly stream?: EventStreamOptions;
}

export function eventsRoutes(deps: EventsDeps): Route[] {
  const hub = changeHubFor(deps.client);
  return [
    {
      method: 'GET',
      path: '/api/events',
      stream: (context, response) => {
        const events = new EventStream(response, deps.stream);
        const unsubscribe = hub.subscribe(events);
        // The first state event tells the page the watch is armed: what it reads from then on stays current.
        void hub.ready(ARM_WAIT_MS).then(() => events.state(deps.client.state, hub.live));
        const end = (): void => {
          unsubscribe();
          events.close();
        };
        if (context.signal.aborted) end();
        else context.signal.addEventListener('abort', end, { once: true });
      },
    },
  ];
}
