/**
 * The GSSAPI (Kerberos V5) SASL mechanism (RFC 4752) for @zkts/protocol's `sasl` option, on MongoDB's `kerberos`
 * native binding (MIT krb5 / Heimdal GSSAPI underneath). The exchange, as Java's GssKrb5Client does it with a
 * ZooKeeper server:
 *
 *   client → AP-REQ                        (initial response; mutual authentication requested)
 *   server → AP-REP                        client checks it: the context is established
 *   client → ''                            RFC 4752: no more context tokens
 *   server → wrap(layers offered, maxbuf)  client unwraps it; it needs "no security layer" to be offered
 *   client → wrap(1, 0, 0, 0, authzid)     no security layer, our principal as the authorization id
 *   server → (empty)                       the session has the `sasl` identity the server derives from us
 *
 * Credentials come from where GSSAPI looks: the ticket cache (KRB5CCNAME, or the default cache), or a client
 * keytab (KRB5_CLIENT_KTNAME; MIT krb5 gets a ticket from it when the cache has none). The binding is loaded on
 * the first connection, not when this module is imported.
 */
import type { SaslExchange, SaslMechanism, SaslServer } from '@zkts/protocol';
import { KerberosError, kerberosError } from './errors.js';
import { parseServerPrincipal, serviceName, type ServiceOptions } from './service.js';

/** The part of the `kerberos` package's client this mechanism uses (tests pass a fake). */
export interface KerberosClientLike {
  readonly contextComplete: boolean;
  readonly username: string;
  /** Feeds the server's token (base64; '' for the first step) to GSSAPI; resolves with ours, or null when none. */
  step(challenge: string): Promise<string | null>;
  /** Unwraps a message the server wrapped (base64 in, base64 out). */
  unwrap(challenge: string): Promise<string>;
  /** Wraps a message for the server (base64 in, base64 out), `user` as the authorization id, without encryption. */
  wrap(challenge: string, options?: { user?: string; protect?: boolean }): Promise<string>;
}

/** The part of the `kerberos` package this mechanism uses: making a client for a host-based service. */
export interface KerberosBinding {
  /** A GSSAPI client for `service` (`zookeeper@host`), as the principal given or the ticket cache's. */
  initializeClient(service: string, options?: { principal?: string }): Promise<KerberosClientLike>;
}

/** Options of {@link gssapi}: who we are, where our credentials are, and which server principal to ask for. */
export interface GssapiOptions extends ServiceOptions {
  /** The client principal (e.g. 'alice@EXAMPLE.COM'); default: the one the ticket cache holds. */
  principal?: string;
  /**
   * A credential cache to use (sets KRB5CCNAME for this process: GSSAPI reads no other setting). Give it
   * when the default cache is not the one; leave it out to honour KRB5CCNAME as set.
   */
  ccache?: string;
  /** A client keytab (sets KRB5_CLIENT_KTNAME for this process): tickets are got from it when needed. */
  keytab?: string;
  /** A krb5.conf (sets KRB5_CONFIG for this process). */
  krb5Config?: string;
  /** The GSSAPI binding; default: the `kerberos` package, loaded on first use. */
  binding?: KerberosBinding;
}

const EMPTY = new Uint8Array(0);
/** RFC 4752 security-layer bit: no protection (authentication only). */
const LAYER_NONE = 1;

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
const unb64 = (text: string | null): Uint8Array => (text === null || text === '' ? EMPTY : new Uint8Array(Buffer.from(text, 'base64')));

let loaded: Promise<KerberosBinding> | undefined;

function loadBinding(): Promise<KerberosBinding> {
  loaded ??= import('kerberos').then(
    (m) => (m as unknown as { default?: KerberosBinding }).default ?? (m as unknown as KerberosBinding),
    (err: unknown) => {
      loaded = undefined;
      throw kerberosError(err, 'loading the kerberos module');
    },
  );
  loaded.catch(() => undefined);
  return loaded.then((binding) => {
    if (typeof binding.initializeClient !== 'function') throw new KerberosError('unavailable', "Kerberos: the 'kerberos' module has no initializeClient");
    return binding;
  });
}

function applyEnvironment(options: GssapiOptions): void {
  if (options.ccache !== undefined) process.env['KRB5CCNAME'] = options.ccache;
  if (options.keytab !== undefined) process.env['KRB5_CLIENT_KTNAME'] = options.keytab;
  if (options.krb5Config !== undefined) process.env['KRB5_CONFIG'] = options.krb5Config;
}

/** One GSSAPI exchange, on one connection: what {@link gssapi}'s mechanism starts for the client. */
export class GssapiExchange implements SaslExchange {
  private stage: 'context' | 'layers' | 'done' = 'context';
  private readonly client: KerberosClientLike;
  private readonly service: string;

  constructor(client: KerberosClientLike, service: string) {
    this.client = client;
    this.service = service;
  }

  get complete(): boolean {
    return this.stage === 'done';
  }

  async initial(): Promise<Uint8Array> {
    const token = unb64(await this.guard('the first token', () => this.client.step('')));
    // Without mutual authentication the context is up at once, and the server's first answer is its layer offer.
    if (this.client.contextComplete) this.stage = 'layers';
    return token;
  }

  async evaluate(challenge: Uint8Array): Promise<Uint8Array | null> {
    if (this.stage === 'context') {
      const token = await this.guard("the server's token", () => this.client.step(b64(challenge)));
      // Established: RFC 4752 says send what is left, or an empty token, and wait for the layer offer.
      if (this.client.contextComplete) this.stage = 'layers';
      return unb64(token);
    }
    if (this.stage === 'layers') {
      const offer = unb64(await this.guard("the server's security-layer offer", () => this.client.unwrap(b64(challenge))));
      if (offer.length !== 4) throw new KerberosError('gssapi', `Kerberos: the server's security-layer offer has ${offer.length} bytes, not 4`);
      if (((offer[0] ?? 0) & LAYER_NONE) === 0) {
        throw new KerberosError('gssapi', 'Kerberos: the server requires an integrity or privacy layer; only authentication (qop=auth) is supported');
      }
      // The binding writes [no layer, 0, 0, 0] + user over what it is given; 8 zero bytes keep its read in bounds.
      const reply = await this.guard('our security-layer choice', () => this.client.wrap(b64(new Uint8Array(8)), { user: this.client.username, protect: false }));
      this.stage = 'done';
      return unb64(reply);
    }
    throw new KerberosError('gssapi', 'Kerberos: the server sent a token after the exchange was complete');
  }

  private async guard<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw kerberosError(err, `${what}, service ${this.service}`);
    }
  }
}

/** The GSSAPI mechanism: `createClient(hosts, { sasl: { mechanism: gssapi() } })`. */
export function gssapi(options: GssapiOptions = {}): SaslMechanism {
  // A malformed principal is a mistake in the program: said when the client is made, not at the first connect.
  if (options.serverPrincipal !== undefined) parseServerPrincipal(options.serverPrincipal);
  return {
    name: 'GSSAPI',
    async start(server: SaslServer): Promise<SaslExchange> {
      applyEnvironment(options);
      const binding = options.binding ?? (await loadBinding());
      const service = await serviceName(server.host, options);
      let client: KerberosClientLike;
      try {
        client = await binding.initializeClient(service.gss, options.principal === undefined ? {} : { principal: options.principal });
      } catch (err) {
        throw kerberosError(err, `acquiring credentials${options.principal === undefined ? '' : ` for ${options.principal}`}`);
      }
      return new GssapiExchange(client, service.principal);
    },
  };
}
