/**
 * Edit ACL: one editable row per entry (scheme, id, the cdrwa permissions as checkboxes), saved with the ACL
 * version read (POST /api/acl). A stale version shows the ACL as it is now and offers to start from it.
 */
import { useState } from 'preact/hooks';

import type { AclEntry, NodeInfo, SetAclRequest } from '../../../../../src/console/api-types.js';
import { ApiError, postJson } from '../../../api.js';
import { Dialog, ErrorLine, shownError, type ShownError } from './shared.js';

const PERMS = ['c', 'd', 'r', 'w', 'a'] as const;
const PERM_NAMES: Readonly<Record<string, string>> = { c: 'create', d: 'delete', r: 'read', w: 'write', a: 'admin' };

interface Row {
  readonly scheme: string;
  readonly id: string;
  readonly perms: string;
}

function togglePerm(perms: string, letter: string): string {
  const set = new Set(perms.includes(letter) ? [...perms].filter((p) => p !== letter) : [...perms, letter]);
  return PERMS.filter((p) => set.has(p)).join('');
}

export function AclForm({ node, onDone, onClose }: { node: NodeInfo; onDone: (path: string) => void; onClose: () => void }) {
  const [rows, setRows] = useState<readonly Row[]>(node.acl);
  const [base, setBase] = useState(node.stat.aversion);
  const [theirs, setTheirs] = useState<NodeInfo | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | undefined>(undefined);

  const update = (index: number, change: Partial<Row>): void => setRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));

  const save = async (): Promise<void> => {
    const request: SetAclRequest = { path: node.path, acl: rows.map((r): AclEntry => ({ scheme: r.scheme, id: r.id, perms: r.perms })), aversion: base };
    setBusy(true);
    setError(undefined);
    try {
      await postJson<NodeInfo>('/api/acl', request);
      onDone(node.path);
    } catch (thrown) {
      setError(shownError(thrown));
      if (thrown instanceof ApiError && thrown.code === 'BAD_VERSION' && thrown.current !== undefined) setTheirs(thrown.current);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Edit the ACL of ${node.path}`} testid="acl-dialog" onClose={onClose}>
      <div class="edit-form">
        <div class="edit-hint">saving replaces ACL version {base}</div>
        <table class="edit-acl">
          <thead>
            <tr>
              <th>scheme</th>
              <th>id</th>
              {PERMS.map((p) => (
                <th key={p} title={PERM_NAMES[p]}>
                  {p}
                </th>
              ))}
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i} data-testid={`acl-row-${i}`}>
                <td>
                  <input data-testid={`acl-scheme-${i}`} value={row.scheme} onInput={(e) => update(i, { scheme: e.currentTarget.value })} />
                </td>
                <td>
                  <input data-testid={`acl-id-${i}`} value={row.id} onInput={(e) => update(i, { id: e.currentTarget.value })} />
                </td>
                {PERMS.map((p) => (
                  <td key={p}>
                    <input
                      type="checkbox"
                      aria-label={PERM_NAMES[p]}
                      data-testid={`acl-perm-${i}-${p}`}
                      checked={row.perms.includes(p)}
                      onChange={() => update(i, { perms: togglePerm(row.perms, p) })}
                    />
                  </td>
                ))}
                <td>
                  <button type="button" data-testid={`acl-remove-${i}`} onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                    remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" data-testid="acl-add" onClick={() => setRows([...rows, { scheme: 'world', id: 'anyone', perms: 'r' }])}>
          Add entry
        </button>
        {theirs === undefined ? null : (
          <div class="edit-conflict" data-testid="acl-conflict">
            <div class="edit-conflict-title">
              changed meanwhile (ACL version {base} → {theirs.stat.aversion}); theirs now:{' '}
              {theirs.acl.map((a) => `${a.scheme}:${a.id}:${a.perms}`).join(', ')}
            </div>
            <div class="edit-buttons">
              <button
                type="button"
                data-testid="acl-reload"
                onClick={() => {
                  setRows(theirs.acl);
                  setBase(theirs.stat.aversion);
                  setTheirs(undefined);
                  setError(undefined);
                }}
              >
                Start from theirs
              </button>
              <button
                type="button"
                data-testid="acl-keep"
                onClick={() => {
                  setBase(theirs.stat.aversion);
                  setTheirs(undefined);
                  setError(undefined);
                }}
              >
                Keep mine (replace theirs on save)
              </button>
            </div>
          </div>
        )}
        <ErrorLine error={error} />
        <div class="edit-buttons">
          <button type="button" data-testid="acl-save" disabled={busy || rows.length === 0} onClick={() => void save()}>
            Save ACL
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </div>
    </Dialog>
  );
}
