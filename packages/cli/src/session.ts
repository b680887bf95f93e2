/**
 * The ZooKeeper session of one CLI invocation (or of a whole `zkts shell`): connected lazily on first use,
 * so commands that need no server (decode, --help) never open a socket.
 */
import { createClient } from '@zkts/protocol';
import type { CallOptions, ClientOptions, ZkClient } from '@zkts/protocol';

import type { GlobalOptions } from './command.js';
import { CliError, ExitCode } from './exit-codes.js';
import { saslOptions } from './sasl.js';

/** Connecting is bounded even without --timeout: a CLI that hangs on a dead server helps nobody. */
export const DEFAULT_CONNECT_TIMEOUT = 15_000;

export class Session {
  private readonly options: GlobalOptions;
  private pending: Promise<ZkClient> | undefined;
  private opened: ZkClient | undefined;

  constructor(options: GlobalOptions) {
    this.options = options;
  }

  get server(): string {
    return this.options.server;
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
    // A command's session is the command's: when it expires the command ends (exit 69) rather than carry on in a
    // new session that holds none of its ephemeral nodes, locks or watches.
    const clientOptions: ClientOptions = { auth: this.options.auth.map((a) => ({ ...a })), renewSession: false };
    if (this.options.sessionTimeout !== undefined) clientOptions.sessionTimeout = this.options.sessionTimeout;
    if (this.options.sasl !== undefined) clientOptions.sasl = await saslOptions(this.options.sasl);
    let client: ZkClient;
    try {
      client = createClient(this.options.server, clientOptions);
    } catch (error) {
      throw new CliError(ExitCode.USAGE, `bad --server '${this.options.server}': ${messageOf(error)}`);
    }
    this.opened = client;
    const timeout = this.options.timeout ?? DEFAULT_CONNECT_TIMEOUT;
    try {
      await client.connect({ timeout });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'AUTH_FAILED' || code === 'SESSION_CLOSED_REQUIRE_SASL_AUTH') {
        throw new CliError(ExitCode.NO_AUTH, `authentication failed at ${this.options.server}: ${messageOf(error)}`, { cause: error });
      }
      throw new CliError(ExitCode.UNAVAILABLE, `cannot connect to ${this.options.server} within ${timeout} ms: ${messageOf(error)}`, { cause: error });
    }
    return client;
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
