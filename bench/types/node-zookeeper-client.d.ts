// The small part of node-zookeeper-client (untyped CommonJS) that the benchmark and the seeds' lock use.
declare module 'node-zookeeper-client' {
  import type { EventEmitter } from 'node:events';

  export interface NzkException extends Error {
    getCode(): number;
    getName(): string;
  }
  export interface NzkEvent {
    getType(): number;
    getName(): string;
    getPath(): string;
  }
  export interface NzkStat {
    version: number;
    czxid: Buffer;
  }
  export type Callback<T> = (error: NzkException | Error | null, result: T) => void;
  export type Watcher = (event: NzkEvent) => void;

  export interface Client extends EventEmitter {
    connect(): void;
    close(): void;
    getSessionId(): Buffer;
    create(path: string, data: Buffer | null, mode: number, callback: Callback<string>): void;
    remove(path: string, version: number, callback: (error: NzkException | Error | null) => void): void;
    getData(path: string, callback: (error: NzkException | Error | null, data: Buffer, stat: NzkStat) => void): void;
    getData(
      path: string,
      watcher: Watcher,
      callback: (error: NzkException | Error | null, data: Buffer, stat: NzkStat) => void,
    ): void;
    setData(path: string, data: Buffer | null, version: number, callback: Callback<NzkStat>): void;
    exists(path: string, watcher: Watcher, callback: Callback<NzkStat | null>): void;
    getChildren(path: string, callback: Callback<string[]>): void;
    mkdirp(path: string, callback: Callback<string>): void;
  }

  export interface ClientOptions {
    sessionTimeout?: number;
    spinDelay?: number;
    retries?: number;
  }

  export function createClient(connectionString: string, options?: ClientOptions): Client;
  export const CreateMode: {
    PERSISTENT: 0;
    EPHEMERAL: 1;
    PERSISTENT_SEQUENTIAL: 2;
    EPHEMERAL_SEQUENTIAL: 3;
  };
  export const Exception: { NO_NODE: -101; NODE_EXISTS: -110 };

  const nzk: {
    createClient: typeof createClient;
    CreateMode: typeof CreateMode;
    Exception: typeof Exception;
  };
  export default nzk;
}
