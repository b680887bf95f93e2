// One test file's disposable resources: clients, fault proxies and foreign (JVM / python) processes, all ended
// after each test, so a failing test leaves nothing running into the next.
import { afterEach } from 'vitest';

import { Proxies } from './expiry.js';
import { killAll } from './foreign.js';
import { Clients } from './helpers.js';

export function perTestResources(): { clients: Clients; proxies: Proxies } {
  const clients = new Clients();
  const proxies = new Proxies();
  afterEach(async () => {
    killAll();
    await clients.closeAll();
    await proxies.closeAll();
  });
  return { clients, proxies };
}
