/**
 * The ways to get a ZkClient besides `new`: createClient (no I/O), connect (create + connect, closed on
 * failure), and the free-standing reconfig for those who pass a client around.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { describeValue } from '../errors/option-keys.js';
import { pickCallOptions } from './cancel.js';
import { ZkClient } from './client.js';
import { CONNECT_OPTION_KEYS, checkClientOptions } from './client-options.js';
import type { ClientOptions, GetDataResult, ReconfigOptions } from './types.js';

/** createClient does no I/O; `connect()` starts the session. */
export function createClient(connectString: string, options?: ClientOptions): ZkClient {
  return new ZkClient(connectString, options);
}

/** createClient + connect; on failure the client is closed. */
export async function connect(connectString: string, options?: ClientOptions & { signal?: AbortSignal; timeout?: number }): Promise<ZkClient> {
  checkClientOptions(options, 'connect', CONNECT_OPTION_KEYS);
  const { signal: _signal, timeout: _timeout, ...clientOptions } = options ?? {};
  return new ZkClient(connectString, clientOptions).connect(pickCallOptions(options ?? {}));
}

/** `reconfig(client, …)`: the same as `client.admin.reconfig(…)`. */
export function reconfig(client: ZkClient, options: ReconfigOptions): Promise<GetDataResult> {
  if (typeof (client as Partial<ZkClient> | null)?.admin?.reconfig !== 'function') {
    return Promise.reject(new InvalidArgumentError('client', `reconfig needs a ZkClient, got ${describeValue(client)}`));
  }
  return client.admin.reconfig(options);
}
