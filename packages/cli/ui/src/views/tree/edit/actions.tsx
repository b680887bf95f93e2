/**
 * The write actions on a node (create child, edit data, delete, edit ACL): one button each, opening its
 * dialog over the node as it was when the button was pressed (the dialog's writes are conditional on that
 * read). A read-only console renders no write buttons at all; its server refuses writes anyway.
 */
import { useState } from 'preact/hooks';

import type { Info, NodeInfo } from '../../../../../src/console/api-types.js';
import { AclForm } from './acl-form.js';
import { CreateForm } from './create-form.js';
import { DataForm } from './data-form.js';
import { DeleteForm } from './delete-form.js';

export interface NodeActionsProps {
  readonly info: Info;
  readonly node: NodeInfo;
  /** After a write: the path to show next (the created node, the same node, or null when it was deleted). */
  readonly onChanged: (path: string | null) => void;
}

type Action = 'create' | 'edit' | 'delete' | 'acl';

export function NodeActions({ info, node, onChanged }: NodeActionsProps) {
  const [open, setOpen] = useState<{ action: Action; node: NodeInfo } | undefined>(undefined);
  if (info.readOnly) return null;
  const close = (): void => setOpen(undefined);
  const done = (path: string | null): void => {
    setOpen(undefined);
    onChanged(path);
  };
  const button = (action: Action, label: string) => (
    <button type="button" class="edit-action" data-testid={`action-${action}`} onClick={() => setOpen({ action, node })}>
      {label}
    </button>
  );
  return (
    <span class="edit-actions" data-testid="node-actions">
      {button('create', 'Create child')}
      {button('edit', 'Edit data')}
      {node.path === '/' ? null : button('delete', 'Delete')}
      {button('acl', 'Edit ACL')}
      {open?.action === 'create' ? <CreateForm node={open.node} onDone={done} onClose={close} /> : null}
      {open?.action === 'edit' ? <DataForm node={open.node} onDone={done} onClose={close} /> : null}
      {open?.action === 'delete' ? <DeleteForm node={open.node} onDone={done} onClose={close} /> : null}
      {open?.action === 'acl' ? <AclForm node={open.node} onDone={done} onClose={close} /> : null}
    </span>
  );
}
