import { describe, expect, it } from 'vitest';

import { fourLetter } from '../../src/index.js';
import { sharedConnectString } from '../support/helpers.js';

describe('shared server (global setup)', () => {
  it('is provided and serves', async () => {
    const [host, port] = sharedConnectString().split(':');
    const srvr = await fourLetter({ host: host ?? '', port: Number(port) }, 'srvr');
    expect(srvr).toMatch(/^Mode: standalone$/m);
  });
});
