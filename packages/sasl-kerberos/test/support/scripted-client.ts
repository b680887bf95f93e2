// A scripted stand-in for the `kerberos` package's client: answers like MIT GSSAPI and records every call, so
// the mechanism's token sequence can be checked without a KDC.
import type { KerberosClientLike } from '../../src/index.js';

export const b64 = (bytes: number[] | Uint8Array): string => Buffer.from(bytes).toString('base64');
export const bytes = (text: string): number[] => [...Buffer.from(text, 'latin1')];

/** A client that answers like MIT GSSAPI with mutual authentication, recording every call. */
export function scriptedClient(offer = [1, 0, 0x10, 0]): KerberosClientLike & { calls: string[] } {
  const calls: string[] = [];
  let complete = false;
  return {
    calls,
    get contextComplete() {
      return complete;
    },
    username: 'alice@ZKTS.TEST',
    step: async (challenge) => {
      calls.push(`step ${challenge === '' ? "''" : Buffer.from(challenge, 'base64').toString('latin1')}`);
      if (challenge === '') return b64(bytes('AP-REQ'));
      complete = true;
      return null;
    },
    unwrap: async (challenge) => {
      calls.push(`unwrap ${Buffer.from(challenge, 'base64').toString('latin1')}`);
      return b64(offer);
    },
    wrap: async (challenge, options) => {
      calls.push(`wrap ${Buffer.from(challenge, 'base64').length} bytes for ${options?.user ?? '-'} protect=${String(options?.protect)}`);
      return b64(bytes(`WRAPPED(${options?.user ?? ''})`));
    },
  };
}

export const text = (b: Uint8Array | null): string => (b === null ? '<null>' : Buffer.from(b).toString('latin1'));
