/**
 * What the recipes remember about one client: whether its server supports container nodes, and the removals of
 * our own nodes still under way. It lives in a WeakMap keyed by the client object, not in module variables,
 * because it is a fact about one client: two clients in one process (say, one to a 3.4 server without
 * containers and one to a 3.8 server) must not share it, and it goes away with the client.
 */
import type { RecipeClient } from './recipe-client.js';

export interface ClientState {
  /** Set once the server answered a container create with UNIMPLEMENTED: parents are persistent from then on. */
  containersUnsupported: boolean;
  /** Removals of our nodes still under way (cleanup.ts); settled ones remove themselves. */
  readonly cleanups: Set<Promise<void>>;
}

const states = new WeakMap<RecipeClient, ClientState>();

export function clientState(client: RecipeClient): ClientState {
  let state = states.get(client);
  if (state === undefined) {
    state = { containersUnsupported: false, cleanups: new Set() };
    states.set(client, state);
  }
  return state;
}
