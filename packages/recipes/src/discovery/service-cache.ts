/**
 * A local, following view of one service's instances (Curator's ServiceCache): a ChildrenCache of
 * `<base>/<name>` whose decoder is the discovery's serializer, so it converges after reconnects and renewals as
 * every cache does. An instance that cannot be read is left out and reported to the discovery's `onError`.
 * Listeners hear the current instances after each change once the first read is done (as Curator's
 * `cacheChanged` does).
 */
import { ChildrenCache } from '../cache/index.js';
import { InstanceFormatError } from '../errors.js';
import { ChangeFeed, checkArg, checkOptions, checkWait, rules, type WaitOptions } from '../internal/index.js';
import type { ServiceInstance } from './instance.js';
import type { ServiceDiscovery } from './service-discovery.js';

/** Options of a ServiceCache. */
export interface ServiceCacheOptions {
  /** As the caches' option: `'auto'` (a persistent watch where the server has them) or `'one-shot'`. */
  watchMode?: 'auto' | 'one-shot';
}

/** A ServiceDiscovery, as far as a cache needs one (checked by shape: the class would make an import cycle). */
export const DISCOVERY = rules.withMethods('a ServiceDiscovery', 'pathForName', 'registerService');

/** Called when a cache or provider made by a discovery closes, so the discovery stops tracking it. */
export const closeHooks = new WeakMap<object, () => void>();

/** The instances of one service, kept up to date (Curator's ServiceCache). */
export class ServiceCache<T = unknown> implements AsyncDisposable {
  /** The service's name. */
  readonly name: string;
  private readonly cache: ChildrenCache<ServiceInstance<T> | undefined>;
  private readonly feed = new ChangeFeed<readonly ServiceInstance<T>[]>();
  private initialized = false;

  constructor(discovery: ServiceDiscovery<T>, name: string, options: ServiceCacheOptions = {}) {
    checkArg('ServiceCache', 'discovery', discovery, DISCOVERY);
    checkArg('ServiceCache', 'name', name, rules.nodeName);
    checkOptions('ServiceCache', options, { watchMode: rules.oneOf(['auto', 'one-shot']) });
    this.name = name;
    const { serializer, onError } = discovery;
    const dir = discovery.pathForName(name);
    this.cache = new ChildrenCache<ServiceInstance<T> | undefined>(discovery.client, dir, {
      data: (bytes, path) => {
        if (path === dir) return undefined; // the service's directory is cached too, and is no instance
        try {
          return serializer.deserialize(bytes, path);
        } catch (e) {
          onError(e instanceof InstanceFormatError ? e : new InstanceFormatError(String(e), { path, cause: e }));
          return undefined;
        }
      },
      onError,
      ...(options.watchMode === undefined ? {} : { watchMode: options.watchMode }),
    });
    this.cache.on((event) => {
      if (event.type === 'initialized') this.initialized = true;
      else if (this.initialized && event.type !== 'resynced') this.feed.emit(this.instances());
    });
  }

  /** Reads the instances and follows them; resolves once the first read is done. */
  async start(options: WaitOptions = {}): Promise<this> {
    checkWait('ServiceCache.start', options);
    await this.cache.start(options);
    return this;
  }

  /** The readable instances now, in node-name order. Fresh each call: do not hold on to it. */
  instances(): ServiceInstance<T>[] {
    const rows: [string, ServiceInstance<T>][] = [];
    for (const [path, node] of this.cache.entries()) if (node.data !== undefined) rows.push([path, node.data]);
    return rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, instance]) => instance);
  }

  /** Calls `listener` with the instances after every change (from the first read on). Returns the function that detaches it. */
  onChange(listener: (instances: readonly ServiceInstance<T>[]) => void): () => void {
    checkArg('ServiceCache.onChange', 'listener', listener, rules.function);
    return this.feed.on(listener);
  }

  /** The instances after every change, until closed or the signal fires. */
  changes(options: { signal?: AbortSignal } = {}): AsyncIterableIterator<readonly ServiceInstance<T>[]> {
    return this.feed.iterate(options, `service cache ${this.name}`);
  }

  /** Stops following (listeners end). */
  async close(): Promise<void> {
    this.feed.end();
    closeHooks.get(this)?.();
    await this.cache.close();
  }

  /** The same as close(), for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
