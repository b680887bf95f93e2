/**
 * The ZooKeeper session of one CLI invocation (or of a whole `zkts shell`): connected lazily on first use,
 * so commands that need no server (decode, --help) never open a socket.
 */
import { ConnectTimeoutError, createClient, parseConnectString, ZkError } from '@zkts/protocol';
import type { CallOptions, ClientOptions, ConnectAttempt, SessionState, ZkClient } from '@zkts/protocol';

import type { GlobalOptions } from './command.js';
import { attemptRecords, describeAttempts, FailureTracker, failureReason, hopelessSummary, hostLabel } from './connect-failures.js';
import { CliError, ExitCode, exitCodeFor } from './exit-codes.js';
import { checkConnectString } from './hosts.js';
import type { Output } from './output.js';
import { saslOptions } from './sasl.js';
import { tlsConnectionOptions } from './tls-options.js';

/** Connecting is bounded even without --timeout: a CLI that hangs on a dead server helps nobody. */
export const DEFAULT_CONNECT_TIMEOUT = 15_000;

export class Session {
  private readonly options: GlobalOptions;
  private readonly out: Output | undefined;
  private readonly renew: boolean;
  private readonly maxPacket: number | undefined;
  private pending: Promise<ZkClient> | undefined;
  private opened: ZkClient | undefined;

  /**
   * `out` hears each failed connect attempt as it happens (one line per host and reason). `renew`: a long-running
   * service (the console) carries on in a new session after an expiry instead of ending with it. `maxPacket`:
   * the largest reply accepted (the client's default otherwise).
   */
  constructor(options: GlobalOptions, out?: Output, { renew = false, maxPacket }: { renew?: boolean; maxPacket?: number } = {}) {
    this.options = options;
    this.out = out;
    this.renew = renew;
    this.maxPacket = maxPacket;
  }

  get server(): string {
    return this.options.server;
  }

  /** The session's state; `idle` until a command first needs the server. */
  get state(): SessionState {
    return this.opened?.state ?? 'idle';
  }

  /** The connected client. A failure to connect is a CliError with the "unavailable" exit code. */
  client(): Promise<ZkClient> {
    this.pending ??= this.open();
    return this.pending;
  }

  /** Per-request options: the --timeout deadline and the command's abort signal. */
  call(signal?: AbortSignal): CallOptions {
    const options: CallOptions = {};
    if (this.options.timeout !== undefined) options.timeout = this.options.timeout;
    if (signal !== undefined) options.signal = signal;
    return options;
  }

  private async open(): Promise<ZkClient> {
    const server = this.options.server;
    checkConnectString(server);
    // A command's session is the command's: when it expires the command ends (exit 69) rather than carry on in a
    // new session that holds none of its ephemeral nodes, locks or watches.
    // waitForServer: the CLI decides itself when connecting is hopeless (connect-failures.ts, which also counts a
    // failed TLS handshake), with one message for every way, instead of the library's UnreachableError.
    const clientOptions: ClientOptions = { auth: this.options.auth.map((a) => ({ ...a })), renewSession: this.renew, waitForServer: true };
    if (this.options.sessionTimeout !== undefined) clientOptions.sessionTimeout = this.options.sessionTimeout;
    if (this.options.allowReadOnly === true) clientOptions.canBeReadOnly = true;
    if (this.maxPacket !== undefined) clientOptions.maxPacket = this.maxPacket;
    if (this.options.sasl !== undefined) clientOptions.sasl = await saslOptions(this.options.sasl);
    if (this.options.tls !== undefined) clientOptions.tls = tlsConnectionOptions(this.options.tls);
    let client: ZkClient;
    let tracker: FailureTracker;
    try {
      tracker = new FailureTracker(parseConnectString(server).hosts.map(hostLabel));
      client = createClient(server, clientOptions);
    } catch (error) {
      throw new CliError(ExitCode.USAGE, `bad --server '${server}': ${messageOf(error)}`);
    }
    this.opened = client;
    const timeout = this.options.timeout ?? DEFAULT_CONNECT_TIMEOUT;
    const hopeless = new AbortController();
    const said = new Map<string, string>();
    const stopListening = client.onConnectFailure((attempt: ConnectAttempt) => {
      const reason = failureReason(attempt.error);
      // Each host's reason once, and again only when it changes: retries every second would be noise.
      if (said.get(attempt.host) !== reason.text) {
        said.set(attempt.host, reason.text);
        this.out?.error(this.out.json ? `${attempt.host}: ${reason.text}` : `${attempt.host}: ${reason.text} [${reason.code}]`, { code: reason.code, host: attempt.host });
      }
      // Outside the library's call stack: aborting closes the client.
      if (tracker.add(attempt)) queueMicrotask(() => hopeless.abort());
    });
    try {
      await client.connect({ timeout, signal: hopeless.signal });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'AUTH_FAILED' || code === 'SESSION_CLOSED_REQUIRE_SASL_AUTH') {
        throw new CliError(ExitCode.NO_AUTH, `authentication failed at ${server}: ${messageOf(error)}`, { cause: error });
      }
      if (hopeless.signal.aborted) {
        const attempts = tracker.attempts();
        const detail = describeAttempts(attempts);
        throw new CliError(ExitCode.UNAVAILABLE, `cannot connect to ${server}: ${hopelessSummary(attempts)} (${detail})`, { cause: error, details: { attempts: attemptRecords(attempts) } });
      }
      const attempts = error instanceof ConnectTimeoutError ? error.attempts : tracker.attempts();
      throw new CliError(ExitCode.UNAVAILABLE, `cannot connect to ${server} within ${timeout} ms (${describeAttempts(attempts)})`, {
        cause: error,
        details: { attempts: attemptRecords(attempts) },
      });
    } finally {
      stopListening();
    }
    return client;
  }

  /**
   * A NO_NODE can mean that the chroot of --server itself is missing, which the server reports as NO_NODE on
   * whatever path was asked for. Then this says so in words; any other error is returned as it is.
   */
  async explain(error: unknown): Promise<unknown> {
    const client = this.opened;
    if (!(error instanceof ZkError) || exitCodeFor(error) !== ExitCode.NO_NODE || client === undefined || client.chroot === '') return error;
    if (client.state !== 'connected' && client.state !== 'connected-read-only') return error;
    const root = await client.exists('/', { timeout: this.options.timeout ?? DEFAULT_CONNECT_TIMEOUT }).catch(() => undefined);
    if (root !== null) return error;
    const hosts = serverWithoutChroot(this.options.server);
    const message = `the chroot ${client.chroot} given in --server does not exist on ${hosts} (NO_NODE on ${client.chroot} itself); create it first: zkts --server ${hosts} create -p ${client.chroot}`;
    return new CliError(ExitCode.NO_NODE, message, {
      cause: error,
    });
  }

  async close(): Promise<void> {
    const client = this.opened;
    this.opened = undefined;
    this.pending = undefined;
    if (client !== undefined) await client.close().catch(() => undefined);
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function serverWithoutChroot(server: string): string {
  const slash = server.indexOf('/');
  return slash < 0 ? server : server.slice(0, slash);
}
