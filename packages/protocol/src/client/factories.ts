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

/**
 * Makes a client without any I/O; its `connect()` opens the session. Useful to attach listeners before the first
 * connection, or to pass the client around before it connects. {@link connect} does both steps at once.
 *
 * @example
 * ```ts
 * import { createClient } from '@zkts/protocol';
 *
 * const zk = createClient(process.env.ZKTS_SERVER ?? '127.0.0.1:2181', { sessionTimeout: 10_000 });
 * zk.on('connected', () => console.log('connected'));
 * await zk.connect({ timeout: 10_000 });
 * console.log(zk.state);
 * await zk.close();
 * // connected
 * // connected
 * ```
 */
export function createClient(connectString: string, options?: ClientOptions): ZkClient {
  return new ZkClient(connectString, options);
}

/**
 * Opens a session with a ZooKeeper ensemble and resolves with its {@link ZkClient} once it is `connected`
 * ({@link createClient} then `connect()`; on failure the client is closed). `connectString` is
 * `host:port[,host:port…][/chroot]`; `timeout` (ms) bounds the wait for the session, `signal` gives up waiting.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 *
 * const zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181', { sessionTimeout: 10_000, timeout: 10_000 });
 * try {
 *   console.log(zk.state);
 *   // An ephemeral node lives as long as the session: close() below deletes it.
 *   const { path } = await zk.create('/worker-', 'hello', { mode: 'ephemeral-sequential' });
 *   console.log((await zk.getData(path)).data.toString());
 * } finally {
 *   await zk.close();
 * }
 * // connected
 * // hello
 * ```
 */
export async function connect(connectString: string, options?: ClientOptions & { signal?: AbortSignal; timeout?: number }): Promise<ZkClient> {
  checkClientOptions(options, 'connect', CONNECT_OPTION_KEYS);
  // The caller's object goes on as it is (as createClient's does) unless it carries connect()'s own keys: a rest
  // copy has a shape of its own, and each of the constructor's reads of it would miss its cache.
  let clientOptions: ClientOptions = options ?? {};
  if (options !== undefined && ('signal' in options || 'timeout' in options)) {
    const { signal: _signal, timeout: _timeout, ...rest } = options;
    clientOptions = rest;
  }
  return new ZkClient(connectString, clientOptions).connect(pickCallOptions(options ?? {}));
}

/** `reconfig(client, …)`: the same as `client.admin.reconfig(…)`. */
export function reconfig(client: ZkClient, options: ReconfigOptions): Promise<GetDataResult> {
  if (typeof (client as Partial<ZkClient> | null)?.admin?.reconfig !== 'function') {
    return Promise.reject(new InvalidArgumentError('client', `reconfig needs a ZkClient, got ${describeValue(client)}`));
  }
  return client.admin.reconfig(options);
}
