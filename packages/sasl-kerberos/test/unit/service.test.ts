// Which service principal the mechanism asks for: `service/host[@REALM]` parsed as Java does, anything else
// refused when the mechanism is made.
import { describe, expect, it } from 'vitest';
import { gssapi, parseServerPrincipal } from '../../src/index.js';
import { serviceName } from '../../src/service.js';

describe('service principal names', () => {
  it('parses service/host[@REALM] and refuses anything else when the mechanism is made', async () => {
    expect(parseServerPrincipal('zookeeper/zk1.example@EXAMPLE.COM')).toEqual({ service: 'zookeeper', host: 'zk1.example' });
    expect(parseServerPrincipal('zookeeper/localhost')).toEqual({ service: 'zookeeper', host: 'localhost' });
    for (const bad of ['zookeeper', '/host', 'zookeeper/', 'zookeeper@REALM']) expect(() => gssapi({ serverPrincipal: bad }), bad).toThrow(TypeError);
    expect(await serviceName('127.0.0.1', { canonicalizeHostname: false })).toEqual({ gss: 'zookeeper@127.0.0.1', principal: 'zookeeper/127.0.0.1' });
  });
});
