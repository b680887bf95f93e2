/**
 * Edit data: the node's data as text, saved with the version read when the dialog opened (POST /api/set). A
 * save refused BAD_VERSION opens the conflict panel: what changed meanwhile (version X → Y), theirs as it is
 * now next to yours, and the choice to overwrite, take theirs, or keep editing.
 */
import { useState } from 'preact/hooks';

import type { NodeInfo, SetDataRequest } from '../../../../../src/console/api-types.js';
import { ApiError, postJson } from '../../../api.js';
import { dataText, Dialog, ErrorLine, shownError, textData, type ShownError } from './shared.js';

function ConflictPanel(props: { base: number; theirs: NodeInfo; yours: string; busy: boolean; onOverwrite: () => void; onReload: () => void; onKeep: () => void }) {
  const { base, theirs, yours, busy } = props;
  const shown = dataText(theirs.data);
  return (
    <div class="edit-conflict" data-testid="edit-conflict">
      <div class="edit-conflict-title" data-testid="conflict-title">
        changed meanwhile (version {base} → {theirs.stat.version})
      </div>
      <div class="edit-conflict-when">
        their change: {new Date(theirs.stat.mtime).toLocaleString()}, {theirs.stat.dataLength} bytes{shown.exact ? '' : ' (not UTF-8: shown with replacement characters)'}
      </div>
      <div class="edit-conflict-sides">
        <div>
          <div class="edit-side-title">theirs (version {theirs.stat.version}, now)</div>
          <pre data-testid="conflict-theirs">{shown.text}</pre>
        </div>
        <div>
          <div class="edit-side-title">yours</div>
          <pre data-testid="conflict-yours">{yours}</pre>
        </div>
      </div>
      <div class="edit-buttons">
        <button type="button" data-testid="conflict-overwrite" disabled={busy} onClick={props.onOverwrite}>
          Overwrite with mine
        </button>
        <button type="button" data-testid="conflict-reload" onClick={props.onReload}>
          Reload theirs
        </button>
        <button type="button" data-testid="conflict-keep" onClick={props.onKeep}>
          Keep editing
        </button>
      </div>
    </div>
  );
}

export function DataForm({ node, onDone, onClose }: { node: NodeInfo; onDone: (path: string) => void; onClose: () => void }) {
  const initial = dataText(node.data);
  const [text, setText] = useState(initial.text);
  const [exact, setExact] = useState(initial.exact);
  /** The version the text was read at: what the save is conditional on. */
  const [base, setBase] = useState(node.stat.version);
  const [conflict, setConflict] = useState<NodeInfo | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | undefined>(undefined);

  const save = async (version: number): Promise<void> => {
    const request: SetDataRequest = { path: node.path, data: textData(text), version };
    setBusy(true);
    setError(undefined);
    try {
      await postJson<NodeInfo>('/api/set', request);
      onDone(node.path);
    } catch (thrown) {
      if (thrown instanceof ApiError && thrown.code === 'BAD_VERSION' && thrown.current !== undefined) {
        // The base stays what the user read: the panel shows which version they started from.
        if (conflict !== undefined) setBase(conflict.stat.version);
        setConflict(thrown.current);
      } else setError(shownError(thrown));
    } finally {
      setBusy(false);
    }
  };

  const reload = (theirs: NodeInfo): void => {
    const shown = dataText(theirs.data);
    setText(shown.text);
    setExact(shown.exact);
    setBase(theirs.stat.version);
    setConflict(undefined);
  };

  return (
    <Dialog title={`Edit the data of ${node.path}`} testid="edit-dialog" onClose={onClose}>
      <div class="edit-form">
        <div class="edit-hint" data-testid="edit-base">
          saving replaces version {base}
          {conflict === undefined ? '' : ` (the node is at version ${conflict.stat.version} now)`}
        </div>
        {exact ? null : (
          <div class="edit-warning" data-testid="edit-binary-warning">
            The data is not UTF-8 text: it is shown with replacement characters, and saving writes the text as shown.
          </div>
        )}
        <textarea data-testid="edit-data" rows={12} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        {conflict === undefined ? null : (
          <ConflictPanel
            base={base}
            theirs={conflict}
            yours={text}
            busy={busy}
            onOverwrite={() => void save(conflict.stat.version)}
            onReload={() => reload(conflict)}
            onKeep={() => {
              // They have seen theirs now: the next save replaces it, unless it changes again.
              setBase(conflict.stat.version);
              setConflict(undefined);
            }}
          />
        )}
        <ErrorLine error={error} />
        {conflict === undefined ? (
          <div class="edit-buttons">
            <button type="button" data-testid="edit-save" disabled={busy} onClick={() => void save(base)}>
              Save
            </button>
            <button type="button" onClick={onClose}>
              Cancel
            </button>
          </div>
        ) : null}
      </div>
    </Dialog>
  );
}
