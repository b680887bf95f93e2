// The embedded backend's structural view of @zkts/server matches the real package (checked by tsc), and the
// loader finds it.
import { describe, expect, it } from 'vitest';

import * as server from '../../../server/src/index.js';
import { loadEmbeddedServer, refuseEmbeddedOptions, type EmbeddedServerModule } from '../../src/embedded.js';
import { UnsupportedOptionError } from '../../src/index.js';

const matches: EmbeddedServerModule = server;

describe('embedded backend', () => {
  it('loads @zkts/server', async () => {
    expect(typeof (await loadEmbeddedServer()).startServer).toBe('function');
    expect(typeof matches.startServer).toBe('function');
  });

  it('refuses JVM, container and ensemble options by name', () => {
    expect(() => refuseEmbeddedOptions({ tickTime: 200, superPassword: 'x', extendedTypesEnabled: true })).not.toThrow();
    for (const option of ['image', 'heap', 'jvmArgs', 'systemProperties', 'config', 'readOnlyMode', 'tls', 'sasl'] as const) {
      const thrown = (() => {
        try {
          refuseEmbeddedOptions({ [option]: option === 'readOnlyMode' || option === 'tls' ? true : {} });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(thrown).toBeInstanceOf(UnsupportedOptionError);
      expect(thrown).toMatchObject({ option });
    }
  });
});
