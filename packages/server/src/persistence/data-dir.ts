/**
 * A server's dataDir: on start the tree and the sessions are restored from `<dataDir>/version-2` (sessions
 * that own ephemerals but are gone are killed, the others tracked again with their timeouts), and a snapshot
 * of the result is written, as ZooKeeperServer.loadData does. While running, every transaction goes to the
 * log before it is applied; after snapCount of them the log rolls and a snapshot follows. close() writes a
 * final snapshot. Session passwords are derived from the session id as ZooKeeper derives them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { ResolvedOptions } from '../options.js';
import type { ServerCore } from '../requests/core.js';
import { restore } from './restore.js';
import { zooKeeperPassword } from './session-password.js';
import { snapshotContents, writeSnapshotFile } from './snapshot-writer.js';
import { txnEntryOf } from './txn-entry.js';
import { TxnLogWriter } from './txn-log-writer.js';

/** The open dataDir of a running server. */
export interface DataDir {
  /** The `version-2` directory. */
  readonly dir: string;
  /** Writes a snapshot of the current state now. */
  snapshot(): void;
  /** Closes the log and writes a final snapshot if anything changed since the last one. */
  close(): void;
}

/** Restores `core` from `options.dataDir` and starts logging its transactions there. */
export function openDataDir(core: ServerCore, options: ResolvedOptions & { dataDir: string }): DataDir {
  const dir = join(options.dataDir, 'version-2');
  mkdirSync(dir, { recursive: true });
  const { tree, sessions } = core;
  sessions.makePassword = zooKeeperPassword;
  const restored = restore(dir, tree, options.logger);
  // ZooKeeperServer.loadData: the ephemerals of sessions that no longer exist go, without a transaction.
  for (const owner of tree.sessionsWithEphemerals()) {
    if (!restored.sessions.has(owner)) tree.killSession(owner, [], tree.lastZxid);
  }
  for (const [id, timeout] of restored.sessions) sessions.restore(id, timeout);
  options.logger.info(`restored zxid 0x${tree.lastZxid.toString(16)} with ${restored.sessions.size} sessions (${restored.replayed} txns replayed)`);

  const log = new TxnLogWriter(dir, options.fsync, options.preAllocSize * 1024);
  let snapshotZxid = -1n;
  let pending = false;
  const snapshot = (): void => {
    pending = false;
    writeSnapshotFile(dir, tree.lastZxid, snapshotContents(tree, sessions.all()), options.fsync);
    snapshotZxid = tree.lastZxid;
  };
  snapshot();
  core.txnLog = (txn, ctx) => {
    const timeout = sessions.get(ctx.sessionId)?.timeout ?? 0;
    log.append(txnEntryOf(txn, { sessionId: ctx.sessionId, cxid: ctx.xid ?? 0, zxid: ctx.zxid, time: ctx.time, timeout }, tree));
    if (log.count >= options.snapCount && !pending) {
      // SyncRequestProcessor: roll the log, then snapshot the tree once this transaction is applied.
      log.roll();
      pending = true;
      queueMicrotask(() => {
        try {
          snapshot();
        } catch (err) {
          options.logger.warn(`writing a snapshot failed: ${(err as Error).message}`);
        }
      });
    }
  };
  let closed = false;
  return {
    dir,
    snapshot,
    close(): void {
      if (closed) return;
      closed = true;
      core.txnLog = undefined;
      log.roll();
      if (tree.lastZxid !== snapshotZxid) snapshot();
    },
  };
}
