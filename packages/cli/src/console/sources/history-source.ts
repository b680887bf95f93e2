/**
 * The transaction history of a ZooKeeper dataDir, newest first, one page at a time: "who deleted my node?"
 * is a page filtered by its path (the delete, the multi or the closeSession that removed it, with the
 * session that did it). Reads the log files `zkts txnlog` reads, with its reader, view and filter.
 *
 * Memory stays bounded whatever the size of the logs: files are scanned newest first, each window by window
 * (TxnLogReader), keeping only the newest `limit` matches of a file; a file whose first zxid is not below
 * `before` is not opened at all. The newest log is read as live (the server may be appending to it).
 */
import { access } from 'node:fs/promises';

import type { TxnLogRecord } from '@zkts/protocol/codec';

import { matches, parseId } from '../../commands/txnlog.js';
import type { TxnFilter } from '../../commands/txnlog.js';
import { hexId } from '../../ids.js';
import { filesInDirectory } from '../../persistence/files.js';
import { TxnLogReader } from '../../persistence/log-reader.js';
import { txnView } from '../../persistence/txn-view.js';
import type { TxnView } from '../../persistence/txn-view.js';
import type { HistoryPage, HistoryTxn } from '../api-types.js';

export interface HistoryQuery {
  /** Transactions touching this path or a node below it. */
  readonly path?: string | undefined;
  /** A session id, `0x…` hex (or decimal). */
  readonly session?: string | undefined;
  /** An op name as the log names it (`delete`, `create2`, `closeSession`, `multi`, …), any case. */
  readonly op?: string | undefined;
  /** Transactions per page; default 100, at most 1000. */
  readonly limit?: number | undefined;
  /** Only transactions older than this zxid (`0x…`): the previous page's `next`. */
  readonly before?: string | undefined;
}

export type HistoryErrorCode = 'BAD_REQUEST' | 'UNAVAILABLE';

export class HistoryError extends Error {
  readonly code: HistoryErrorCode;

  constructor(code: HistoryErrorCode, message: string) {
    super(message);
    this.name = 'HistoryError';
    this.code = code;
  }
}

export const DEFAULT_HISTORY_LIMIT = 100;
export const MAX_HISTORY_LIMIT = 1000;


function fieldText(value: TxnView['fields'][number][1]): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}

export function historyTxn(view: TxnView): HistoryTxn {
  return {
    zxid: hexId(view.zxid),
    time: view.time,
    session: hexId(view.session),
    cxid: view.cxid,
    op: view.op,
    path: view.path ?? null,
    paths: view.paths,
    fields: view.fields.map(([key, value]) => [key, fieldText(value)] as const),
    by: view.by ?? null,
  };
}

function id(text: string, what: string): bigint {
  try {
    return parseId(text.trim(), what);
  } catch (error) {
    throw new HistoryError('BAD_REQUEST', error instanceof Error ? error.message : String(error));
  }
}

/** The query as txnlog's filter, checked. */
function filterOf(query: HistoryQuery): { filter: TxnFilter; limit: number; before: bigint | undefined } {
  const limit = query.limit ?? DEFAULT_HISTORY_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_HISTORY_LIMIT) throw new HistoryError('BAD_REQUEST', `limit must be 1..${MAX_HISTORY_LIMIT}, got ${limit}`);
  const path = query.path?.trim();
  if (path !== undefined && path !== '' && !path.startsWith('/')) throw new HistoryError('BAD_REQUEST', `path must start with '/', got '${path}'`);
  const before = query.before === undefined || query.before === '' ? undefined : id(query.before, 'before');
  return {
    filter: {
      paths: path === undefined || path === '' ? [] : [path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path],
      sessions: query.session === undefined || query.session === '' ? [] : [id(query.session, 'session')],
      from: undefined,
      to: before === undefined ? undefined : before - 1n,
      ops: query.op === undefined || query.op.trim() === '' ? [] : [query.op.trim().toLowerCase()],
    },
    limit,
    before,
  };
}

export class HistorySource {
  readonly dataDir: string;

  constructor(dataDir: string) {
    this.dataDir = dataDir;
  }

  /** One page of matching transactions, newest first; rejects with HistoryError. */
  async page(query: HistoryQuery = {}): Promise<HistoryPage> {
    const { filter, limit, before } = filterOf(query);
    let files;
    try {
      files = await filesInDirectory(this.dataDir, 'log');
    } catch (error) {
      throw new HistoryError('UNAVAILABLE', error instanceof Error ? error.message : String(error));
    }
    const reader = new TxnLogReader();
    const found: TxnView[] = [];
    for (let index = files.length - 1; index >= 0 && found.length < limit; index--) {
      const file = files[index];
      if (file === undefined) continue;
      // A log is named after its first zxid: nothing in it is older than `before`.
      if (before !== undefined && file.zxid !== undefined && file.zxid >= before) continue;
      const want = limit - found.length;
      // The newest `want` matches of this file, oldest first (a file is read oldest first).
      const newest: TxnView[] = [];
      const sink = {
        record(path: string, record: TxnLogRecord): void {
          const view = txnView(path, record);
          if (view === undefined || !matches(view, filter)) return;
          newest.push(view);
          if (newest.length > want) newest.shift();
        },
        problem(): void {
          // Damage ends what a file yields; the transactions before it are still history.
        },
      };
      try {
        await reader.read(file.path, index < files.length - 1, sink);
      } catch (error) {
        // A log removed meanwhile (the server purges old ones) is skipped; any other failure is the answer.
        if (await exists(file.path)) throw new HistoryError('UNAVAILABLE', error instanceof Error ? error.message : String(error));
      }
      found.push(...newest.reverse());
    }
    const last = found[found.length - 1];
    return { available: true, txns: found.map(historyTxn), next: found.length >= limit && last !== undefined ? hexId(last.zxid) : null };
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
