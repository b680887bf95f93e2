/**
 * What the session needs of a SASL mechanism, and nothing more: a name, and one exchange per connection that
 * turns the server's tokens into ours. The session (session/sasl.ts) carries the tokens over the wire (opcode
 * 102, GetSASLRequest/SetSASLResponse) and decides what an outcome means for the session; a mechanism only
 * computes. DIGEST-MD5 is built in (digest-md5.ts); GSSAPI lives in the optional @zkts/sasl-kerberos package,
 * which hands the client an object of this shape, so the core never loads a native module unless asked.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import { checkOptionKeys, describeValue } from '../../errors/option-keys.js';
import { digestMd5, type DigestMd5Options } from './digest-md5.js';

/** The server an exchange authenticates to: the host and port as the connect string names them. */
export interface SaslServer {
  readonly host: string;
  readonly port: number;
}

/**
 * One authentication on one connection, like Java's javax.security.sasl.SaslClient. The session calls
 * `initial()` once, sends its token (an empty one for mechanisms without an initial response, as DIGEST-MD5),
 * then for each server token calls `evaluate` and sends what it returns, until `complete` is true and the
 * server's reply to our last token has arrived. Throwing (a ZkError or anything else) fails the authentication:
 * the session ends in `auth-failed` with an AuthFailedError whose cause is what was thrown.
 */
export interface SaslExchange {
  /** The first token to send (empty when the mechanism waits for the server's challenge). */
  initial(): Uint8Array | Promise<Uint8Array>;
  /** The answer to a server token; null when there is nothing more to send (then `complete` must be true). */
  evaluate(challenge: Uint8Array): Uint8Array | null | Promise<Uint8Array | null>;
  /** This side is done, the server's proof (if the mechanism has one) checked. */
  readonly complete: boolean;
  /** Frees what the exchange holds (a GSS context); called once when it ends, whatever the outcome. */
  dispose?(): void;
}

/** A SASL mechanism the session can run after each handshake (DIGEST-MD5 built in; GSSAPI from @zkts/sasl-kerberos). */
export interface SaslMechanism {
  /** The SASL name, e.g. 'DIGEST-MD5' or 'GSSAPI' (diagnostics and error messages). */
  readonly name: string;
  /** A fresh exchange for a new connection (every connect, reconnect and renewal authenticates again). */
  start(server: SaslServer): SaslExchange | Promise<SaslExchange>;
}

/**
 * The client's `sasl` option: the built-in DIGEST-MD5 by name and credentials (the users of a server's
 * DigestLoginModule), or any mechanism object (e.g. `gssapi()` from @zkts/sasl-kerberos).
 */
export type SaslOptions = ({ mechanism: 'DIGEST-MD5' } & DigestMd5Options) | { mechanism: SaslMechanism };

/** The mechanism the session runs on every connection, or null without the option. Throws on bad input. */
export function saslMechanism(options: SaslOptions | undefined): SaslMechanism | null {
  if (options === undefined) return null;
  const mechanism: unknown = (options as { mechanism?: unknown } | null)?.mechanism;
  if (mechanism === 'DIGEST-MD5') {
    checkOptionKeys(options, ['mechanism', 'username', 'password', 'protocol', 'serverName'], 'sasl');
    const { mechanism: _name, ...credentials } = options as { mechanism: 'DIGEST-MD5' } & DigestMd5Options;
    return digestMd5(credentials);
  }
  if (typeof mechanism === 'object' && mechanism !== null && typeof (mechanism as SaslMechanism).start === 'function' && typeof (mechanism as SaslMechanism).name === 'string') {
    checkOptionKeys(options, ['mechanism'], 'sasl');
    return mechanism as SaslMechanism;
  }
  throw new InvalidArgumentError('sasl', `mechanism must be 'DIGEST-MD5' or a SASL mechanism object (name + start), got ${describeValue(mechanism)}`);
}
