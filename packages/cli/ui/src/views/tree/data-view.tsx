/**
 * A node's data as text, pretty JSON or a hex dump. Bytes are decoded once per node; invalid UTF-8 shows as
 * U+FFFD with a note pointing at hex, JSON is offered only when the data parses, the hex dump is a virtual
 * list (a megabyte is 65,536 lines) and long text is shown in part until asked for all of it. Everything is
 * rendered as text nodes.
 */
import { useMemo, useState } from 'preact/hooks';

import { decodeText, formatBytes, HEX_ROW_BYTES, hexRow, prettyJson } from './format.js';
import { VirtualList } from './virtual-list.js';

export type DataMode = 'text' | 'json' | 'hex';

/** Text beyond this waits for "show all": laying out a megabyte of wrapped text takes a while. */
const TEXT_PREVIEW_CHARS = 64 * 1024;
/** Larger data is not parsed as JSON on every render of a node. */
const JSON_LIMIT_BYTES = 2 * 1024 * 1024;
const HEX_ROW_HEIGHT = 18;
/** C0 controls but tab, LF and CR, and DEL: invisible in text, so the page says they are there. */
function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return true;
  }
  return false;
}

export interface DataViewProps {
  readonly bytes: Uint8Array;
  /** What the user picked last; JSON falls back to text when the data is not JSON. */
  readonly mode: DataMode | undefined;
  readonly onMode: (mode: DataMode) => void;
  /** Identifies the data shown (path and mzxid): a new one collapses the text again. */
  readonly dataKey: string;
}

export function DataView({ bytes, mode, onMode, dataKey }: DataViewProps) {
  const decoded = useMemo(() => decodeText(bytes), [bytes]);
  const json = useMemo(() => (decoded.valid && bytes.length <= JSON_LIMIT_BYTES ? prettyJson(decoded.text) : undefined), [decoded, bytes]);
  const shown: DataMode = mode === 'json' && json === undefined ? 'text' : (mode ?? (json !== undefined ? 'json' : 'text'));
  const [expanded, setExpanded] = useState<string | undefined>(undefined);
  const controls = useMemo(() => hasControlCharacters(decoded.text), [decoded]);

  const button = (m: DataMode, label: string, disabled = false) => (
    <button type="button" class={shown === m ? 'seg active' : 'seg'} disabled={disabled} onClick={() => onMode(m)} data-testid={`data-mode-${m}`}>
      {label}
    </button>
  );

  let body;
  if (bytes.length === 0) body = <div class="tree-muted" data-testid="data-empty">no data</div>;
  else if (shown === 'hex') {
    body = (
      <VirtualList
        count={Math.ceil(bytes.length / HEX_ROW_BYTES)}
        rowHeight={HEX_ROW_HEIGHT}
        height={Math.ceil(bytes.length / HEX_ROW_BYTES) * HEX_ROW_HEIGHT + 4}
        resetKey={dataKey}
        class="hex-dump"
        testid="data-hex"
        renderRow={(row) => {
          const line = hexRow(bytes, row);
          return (
            <span class="hex-line" data-testid="hex-line">
              <span class="hex-offset">{line.offset}</span>
              <span class="hex-bytes">{line.hex}</span>
              <span class="hex-ascii">{line.ascii}</span>
            </span>
          );
        }}
      />
    );
  } else if (shown === 'json' && json !== undefined) {
    body = (
      <pre class="data-text" data-testid="data-json">
        {json}
      </pre>
    );
  } else {
    const all = expanded === dataKey || decoded.text.length <= TEXT_PREVIEW_CHARS;
    body = (
      <>
        {decoded.valid ? null : (
          <div class="tree-note" data-testid="invalid-utf8">
            This data is not valid UTF-8: the undecodable bytes show as �. The hex view shows them as they are.
          </div>
        )}
        {decoded.valid && controls ? (
          <div class="tree-note" data-testid="control-chars">
            This data holds control characters (NUL, ESC…), which show as nothing or as boxes here. The hex view shows them.
          </div>
        ) : null}
        <pre class="data-text" data-testid="data-text">
          {all ? decoded.text : decoded.text.slice(0, TEXT_PREVIEW_CHARS)}
        </pre>
        {all ? null : (
          <button type="button" class="link" onClick={() => setExpanded(dataKey)} data-testid="show-all-text">
            Show all {formatBytes(bytes.length)}
          </button>
        )}
      </>
    );
  }

  return (
    <section class="tree-data">
      <div class="tree-data-head">
        <h3>Data</h3>
        <span class="tree-muted">{formatBytes(bytes.length)}</span>
        <span class="segs">
          {button('text', 'Text')}
          {button('json', 'JSON', json === undefined)}
          {button('hex', 'Hex')}
        </span>
      </div>
      {body}
    </section>
  );
}
