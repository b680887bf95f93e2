/** Create child: name, data as text, any create mode, a TTL for the TTL modes (POST /api/create). */
import { useState } from 'preact/hooks';

import type { CreateModeName, CreateReply, CreateRequest, NodeInfo } from '../../../../../src/console/api-types.js';
import { postJson } from '../../../api.js';
import { childPath, Dialog, ErrorLine, shownError, textData, type ShownError } from './shared.js';

const MODES: readonly CreateModeName[] = [
  'persistent',
  'ephemeral',
  'persistent-sequential',
  'ephemeral-sequential',
  'container',
  'persistent-with-ttl',
  'persistent-sequential-with-ttl',
];

export function CreateForm({ node, onDone, onClose }: { node: NodeInfo; onDone: (path: string) => void; onClose: () => void }) {
  const [name, setName] = useState('');
  const [data, setData] = useState('');
  const [mode, setMode] = useState<CreateModeName>('persistent');
  const [ttl, setTtl] = useState('60000');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | undefined>(undefined);
  const withTtl = mode.endsWith('-with-ttl');

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (name === '' || name.includes('/')) {
      setError({ code: 'BAD_REQUEST', message: 'the name must be non-empty and without "/"' });
      return;
    }
    const request: CreateRequest = { path: childPath(node.path, name), data: textData(data), mode, ...(withTtl ? { ttl: Number(ttl) } : {}) };
    setBusy(true);
    setError(undefined);
    try {
      onDone((await postJson<CreateReply>('/api/create', request)).path);
    } catch (thrown) {
      setError(shownError(thrown));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Create a child of ${node.path}`} testid="create-dialog" onClose={onClose}>
      <form class="edit-form" onSubmit={(e) => void submit(e)}>
        <label>
          name
          <input data-testid="create-name" value={name} autoFocus onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          mode
          <select data-testid="create-mode" value={mode} onChange={(e) => setMode(e.currentTarget.value as CreateModeName)}>
            {MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        {withTtl ? (
          <label>
            TTL (ms)
            <input data-testid="create-ttl" type="number" min="1" value={ttl} onInput={(e) => setTtl(e.currentTarget.value)} />
          </label>
        ) : null}
        <label>
          data (text)
          <textarea data-testid="create-data" rows={5} value={data} onInput={(e) => setData(e.currentTarget.value)} />
        </label>
        <ErrorLine error={error} />
        <div class="edit-buttons">
          <button type="submit" data-testid="create-submit" disabled={busy}>
            Create
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
