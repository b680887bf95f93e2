/**
 * What the edit dialogs share: the overlay they open in, the error line (the server's code and words), and
 * node data as editable text (bytes kept exact where they are UTF-8; anything else flagged, never broken).
 */
import type { ComponentChildren } from 'preact';

import { ApiError, fromBase64, toBase64 } from '../../../api.js';

export function Dialog({ title, testid, onClose, children }: { title: string; testid: string; onClose: () => void; children: ComponentChildren }) {
  return (
    <div class="edit-overlay" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <div class="edit-dialog" role="dialog" aria-label={title} data-testid={testid}>
        <div class="edit-dialog-head">
          <h3>{title}</h3>
          <button type="button" class="edit-close" aria-label="close" data-testid="dialog-close" onClick={onClose}>
            ×
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

export interface ShownError {
  readonly code: string;
  readonly message: string;
}

export function shownError(error: unknown): ShownError {
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}

export function ErrorLine({ error }: { error: ShownError | undefined }) {
  if (error === undefined) return null;
  return (
    <div class="edit-error" role="alert" data-testid="action-error">
      <span class="edit-error-code">{error.code}</span> {error.message}
    </div>
  );
}

/** Node data (base64) as text: `exact` is false when the bytes are not UTF-8 (saving would replace them). */
export function dataText(base64: string): { text: string; exact: boolean } {
  const bytes = fromBase64(base64);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), exact: true };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), exact: false };
  }
}

export function textData(text: string): string {
  return toBase64(new TextEncoder().encode(text));
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

export function childPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}
