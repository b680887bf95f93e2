/**
 * The History view (console started with --data-dir): the server's transaction log, newest first, filtered
 * by path (the node or anything below it), session and op, a page at a time. "Who deleted my node?" is the
 * node's path as filter: the delete (or the closeSession of an expired session, marked "by expiry") with
 * the session that did it. The filter lives in the hash, `#/history/?path=/a/b&session=0x…&op=delete`, so
 * the tree can link "history of this node" and a filtered view can be shared.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

import type { HistoryPage, HistoryTxn } from '../../../../src/console/api-types.js';
import { getJson } from '../../api.js';
import { registerView, type ViewProps } from '../registry.js';
import { FilterForm } from './filter.js';
import { TxnTable } from './txn-table.js';

const PAGE = 100;

export interface HistoryFilter {
  readonly path: string;
  readonly session: string;
  readonly op: string;
  /** Transactions per page ('' : the default); only from the hash, for a shorter or longer page. */
  readonly limit?: string;
}

/** Read from the raw hash, not the decoded one: a path may hold `&`, `=` or `%`. */
export function filterFromHash(hash: string): HistoryFilter {
  const at = hash.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
  return { path: params.get('path') ?? '', session: params.get('session') ?? '', op: params.get('op') ?? '', limit: params.get('limit') ?? '' };
}

/** The hash of the History view filtered so (what the tree's "history of this node" links to). */
export function historyHash(filter: Partial<HistoryFilter>): string {
  const params = new URLSearchParams();
  for (const key of ['path', 'session', 'op', 'limit'] as const) {
    const value = filter[key]?.trim();
    if (value !== undefined && value !== '') params.set(key, value);
  }
  const qs = params.toString();
  return qs === '' ? '#/history/' : `#/history/?${qs}`;
}

interface Loaded {
  readonly txns: readonly HistoryTxn[];
  readonly next: string | null;
}

function HistoryView({ rest }: ViewProps): JSX.Element {
  const filter = filterFromHash(location.hash);
  const key = `${filter.path}\n${filter.session}\n${filter.op}\n${filter.limit ?? ''}`;
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const load = async (before: string | undefined, previous: readonly HistoryTxn[]): Promise<void> => {
    setBusy(true);
    try {
      const page = await getJson<HistoryPage>('/api/history', { path: filter.path || undefined, session: filter.session || undefined, op: filter.op || undefined, limit: filter.limit || PAGE, before });
      setLoaded({ txns: [...previous, ...page.txns], next: page.next });
      setError(undefined);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    setLoaded(undefined);
    void load(undefined, []);
    // Reloaded when the filter (the hash) changes; `rest` changes with it.
  }, [key, rest]);

  const apply = (next: Partial<HistoryFilter>): void => {
    location.hash = historyHash({ ...filter, ...next });
  };

  return (
    <div class="ops" data-testid="history-view">
      <FilterForm filter={filter} onApply={apply} busy={busy} onRefresh={() => void load(undefined, [])} />
      {error === undefined ? null : <p class="error" data-testid="history-error">{error}</p>}
      {loaded === undefined ? (
        <p class="muted">reading the log…</p>
      ) : (
        <>
          <TxnTable txns={loaded.txns} onFilter={apply} />
          <p>
            {loaded.next === null ? (
              <span class="muted small" data-testid="history-end">
                {loaded.txns.length === 0 ? 'No transactions match.' : 'The start of the log (older logs may have been purged).'}
              </span>
            ) : (
              <button type="button" data-testid="history-older" disabled={busy} onClick={() => void load(loaded.next ?? undefined, loaded.txns)}>
                Older
              </button>
            )}
          </p>
        </>
      )}
    </div>
  );
}

registerView({ id: 'history', title: 'History', enabled: (info) => info.dataDir !== null, component: HistoryView });
