/** The History view's filter inputs: path (the node and everything below it), session id and op. */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

import type { HistoryFilter } from './index.js';

/** The op names the log uses, offered as suggestions (any name is accepted). */
const OPS = ['create', 'create2', 'createContainer', 'createTTL', 'delete', 'deleteContainer', 'setData', 'setACL', 'multi', 'createSession', 'closeSession', 'reconfig', 'error'];

export function FilterForm({ filter, onApply, onRefresh, busy }: { filter: HistoryFilter; onApply: (f: HistoryFilter) => void; onRefresh: () => void; busy: boolean }): JSX.Element {
  const [draft, setDraft] = useState(filter);
  useEffect(() => setDraft(filter), [filter.path, filter.session, filter.op]);
  const field = (name: 'path' | 'session' | 'op', label: string, placeholder: string, list?: string): JSX.Element => (
    <label class="field">
      <span class="small muted">{label}</span>
      <input
        data-testid={`history-${name}`}
        value={draft[name]}
        placeholder={placeholder}
        list={list}
        onInput={(e) => setDraft({ ...draft, [name]: (e.currentTarget as HTMLInputElement).value })}
      />
    </label>
  );
  const filtered = filter.path !== '' || filter.session !== '' || filter.op !== '';
  return (
    <form
      class="filters"
      data-testid="history-filter"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(draft);
      }}
    >
      {field('path', 'path (and below)', '/app/config')}
      {field('session', 'session', '0x1000…')}
      {field('op', 'op', 'delete', 'history-ops')}
      <datalist id="history-ops">
        {OPS.map((op) => (
          <option key={op} value={op} />
        ))}
      </datalist>
      <button type="submit" data-testid="history-apply" disabled={busy}>
        Filter
      </button>
      {filtered ? (
        <button type="button" data-testid="history-clear" onClick={() => onApply({ path: '', session: '', op: '', limit: filter.limit ?? '' })}>
          Clear
        </button>
      ) : null}
      <button type="button" data-testid="history-refresh" onClick={onRefresh} disabled={busy}>
        Refresh
      </button>
    </form>
  );
}
