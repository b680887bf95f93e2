// Pins @zkts/sasl-kerberos' entry point: the name list lives in surface/root.txt beside this file, so adding or
// removing an export is a decision visible as a diff, not an accident.
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { AuthFailedError } from '@zkts/protocol';
import { describeSurface } from '../../../../test/support/describe-surface.js';
import { KerberosError } from '../../src/index.js';

describeSurface(fileURLToPath(new URL('../..', import.meta.url)), fileURLToPath(new URL('./surface', import.meta.url)), {
  '.': () => import('@zkts/sasl-kerberos'),
});

describe('@zkts/sasl-kerberos exports', () => {
  it('KerberosError is an AuthFailedError with a reason, and instanceof works by brand', () => {
    const e = new KerberosError('expired', 'ticket expired');
    expect(e.code).toBe('AUTH_FAILED');
    expect(e.name).toBe('KerberosError');
    expect(e.reason).toBe('expired');
    expect(e).toBeInstanceOf(AuthFailedError);
    expect(e).toBeInstanceOf(KerberosError);
    expect(new AuthFailedError('x')).not.toBeInstanceOf(KerberosError);
  });
});
