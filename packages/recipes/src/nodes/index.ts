/** Nodes kept in place across reconnects and renewals: Curator's PersistentNode, PersistentTtlNode and PersistentWatcher. */
export { PersistentNode, type PersistentNodeMode, type PersistentNodeOptions, type PersistentNodeStats } from './persistent-node.js';
export { PersistentTtlNode, type PersistentTtlNodeOptions } from './persistent-ttl-node.js';
export { PersistentWatcher, type PersistentWatcherOptions } from './persistent-watcher.js';
