/**
 * The transactions, newest first: zxid, time, session, op, path and the op's fields. A path or a session is
 * a link that filters by it; a transaction the server made itself is marked "by expiry" (closing an expired
 * session, which deletes its ephemerals) or "by reaper" (container and TTL clean-up).
 */
import type { JSX } from 'preact';

import type { HistoryTxn } from '../../../../src/console/api-types.js';
import { dateTime } from '../../charts/format.js';
import type { HistoryFilter } from './index.js';

const BY_LABEL: Readonly<Record<string, string>> = { expiry: 'by expiry', reaper: 'by reaper' };

function FilterLink({ text, testid, onClick }: { text: string; testid: string; onClick: () => void }): JSX.Element {
  return (
    <a
      href="#"
      class="mono filter-link"
      data-testid={testid}
      title="show only this"
      onClick={(e) => {
        e.preventDefault();
        onClick();
      }}
    >
      {text}
    </a>
  );
}

function Row({ txn, onFilter }: { txn: HistoryTxn; onFilter: (f: Partial<HistoryFilter>) => void }): JSX.Element {
  const paths = txn.paths.length > 0 ? txn.paths : txn.path === null ? [] : [txn.path];
  return (
    <tr data-testid="txn-row" data-zxid={txn.zxid} data-op={txn.op}>
      <td class="mono" data-testid="txn-zxid">{txn.zxid}</td>
      <td data-testid="txn-time">{dateTime(txn.time)}</td>
      <td>
        <FilterLink text={txn.session} testid="txn-session" onClick={() => onFilter({ session: txn.session })} />
      </td>
      <td>
        <span class="mono" data-testid="txn-op">{txn.op}</span>
        {txn.by === null ? null : (
          <span class="badge warn" data-testid="txn-by">
            {BY_LABEL[txn.by] ?? `by ${txn.by}`}
          </span>
        )}
      </td>
      <td>
        {paths.map((p) => (
          <div key={p}>
            <FilterLink text={p} testid="txn-path" onClick={() => onFilter({ path: p })} />
          </div>
        ))}
      </td>
      <td class="small" data-testid="txn-fields">
        {txn.fields.map(([k, v], i) => (
          <span key={i} class="field-pair">
            <span class="muted">{k}</span> <span class="mono">{v}</span>
          </span>
        ))}
      </td>
    </tr>
  );
}

export function TxnTable({ txns, onFilter }: { txns: readonly HistoryTxn[]; onFilter: (f: Partial<HistoryFilter>) => void }): JSX.Element {
  if (txns.length === 0) return <p class="muted" data-testid="history-empty">No transactions match.</p>;
  return (
    <table class="grid-table" data-testid="history-table">
      <thead>
        <tr>
          <th>zxid</th>
          <th>time</th>
          <th>session</th>
          <th>op</th>
          <th>path</th>
          <th>fields</th>
        </tr>
      </thead>
      <tbody>
        {txns.map((t) => (
          <Row key={t.zxid} txn={t} onFilter={onFilter} />
        ))}
      </tbody>
    </table>
  );
}
