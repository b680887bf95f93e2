/** The write actions on a node (create child, edit data, delete, edit ACL). */
import type { Info, NodeInfo } from '../../../../../src/console/api-types.js';

export interface NodeActionsProps {
  readonly info: Info;
  readonly node: NodeInfo;
  /** After a write: the path to show next (the created node, the same node, or null when it was deleted). */
  readonly onChanged: (path: string | null) => void;
}

export function NodeActions(_props: NodeActionsProps) {
  return null;
}
