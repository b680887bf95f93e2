/**
 * Kerberos for `@zkts/protocol`: {@link gssapi} is the SASL GSSAPI mechanism a Kerberized ZooKeeper expects, on
 * the `kerberos` native module, with ticket-cache or keytab credentials; failures are {@link KerberosError}s with
 * a `reason`. Optional: the client never loads it unless you pass it.
 *
 * @packageDocumentation
 */
// @zkts/sasl-kerberos: Kerberos (SASL GSSAPI) for @zkts/protocol, on the `kerberos` native binding. Optional by
// design: the core never loads it; a program that wants Kerberos passes `gssapi()` as the client's SASL
// mechanism. test/unit/exports.test.ts pins this list.
export { gssapi, GssapiExchange, type GssapiOptions, type KerberosBinding, type KerberosClientLike } from './gssapi.js';
export { KerberosError, type KerberosFailure } from './errors.js';
export { canonicalHost, parseServerPrincipal, type ServiceOptions } from './service.js';
