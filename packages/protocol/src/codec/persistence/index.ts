// ZooKeeper's on-disk formats: transaction logs, snapshots and the txn records inside them.
export * from './adler32.js';
export * from './file-header.js';
export * from './txn-records.js';
export * from './txn-entry.js';
export * from './txn-log.js';
export * from './snapshot.js';
export * from './describe.js';
