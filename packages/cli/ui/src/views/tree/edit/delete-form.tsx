/**
 * Delete: a leaf with the version read; a node with children only after counting its subtree (GET /api/count)
 * and the user confirming that number, which the console checks again before deleting (POST /api/delete).
 */
import { useEffect, useState } from 'preact/hooks';

import type { DeleteReply, DeleteRequest, NodeInfo, SubtreeCount } from '../../../../../src/console/api-types.js';
import { ApiError, getJson, postJson } from '../../../api.js';
import { count, Dialog, ErrorLine, shownError, type ShownError } from './shared.js';

type Plan = { readonly kind: 'counting' } | { readonly kind: 'leaf' } | { readonly kind: 'subtree'; readonly count: number };

export function DeleteForm({ node, onDone, onClose }: { node: NodeInfo; onDone: (path: string | null) => void; onClose: () => void }) {
  const [plan, setPlan] = useState<Plan>(node.stat.numChildren === 0 ? { kind: 'leaf' } : { kind: 'counting' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | undefined>(undefined);

  const recount = async (): Promise<void> => {
    setPlan({ kind: 'counting' });
    try {
      const counted = await getJson<SubtreeCount>('/api/count', { path: node.path });
      setPlan(counted.count === 1 ? { kind: 'leaf' } : { kind: 'subtree', count: counted.count });
    } catch (thrown) {
      setError(shownError(thrown));
    }
  };

  useEffect(() => {
    if (node.stat.numChildren > 0) void recount();
  }, []);

  const confirm = async (): Promise<void> => {
    if (plan.kind === 'counting') return;
    // A leaf that was counted rather than read carries no version: any version then.
    const request: DeleteRequest =
      plan.kind === 'leaf' ? { path: node.path, version: node.stat.numChildren === 0 ? node.stat.version : -1 } : { path: node.path, recursive: true, confirmCount: plan.count };
    setBusy(true);
    setError(undefined);
    try {
      await postJson<DeleteReply>('/api/delete', request);
      onDone(null);
    } catch (thrown) {
      setError(shownError(thrown));
      // The subtree grew, or a leaf got children: count again so the user confirms what is there now.
      if (thrown instanceof ApiError && (thrown.code === 'CONFLICT' || thrown.code === 'NOT_EMPTY')) void recount();
    } finally {
      setBusy(false);
    }
  };

  const question =
    plan.kind === 'counting' ? `counting the nodes under ${node.path}…` : plan.kind === 'leaf' ? `delete ${node.path}?` : `delete ${count(plan.count)} nodes under ${node.path}?`;
  return (
    <Dialog title={`Delete ${node.path}`} testid="delete-dialog" onClose={onClose}>
      <div class="edit-form">
        <div class={plan.kind === 'subtree' ? 'edit-question edit-danger' : 'edit-question'} data-testid="delete-question">
          {question}
        </div>
        {plan.kind === 'subtree' ? <div class="edit-hint">The node and everything under it, deepest first. This cannot be undone.</div> : null}
        <ErrorLine error={error} />
        <div class="edit-buttons">
          <button type="button" class="edit-danger-button" data-testid="delete-confirm" disabled={busy || plan.kind === 'counting'} onClick={() => void confirm()}>
            {plan.kind === 'subtree' ? `Delete ${count(plan.count)} nodes` : 'Delete'}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </div>
    </Dialog>
  );
}
