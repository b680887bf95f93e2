import { registerView, type ViewProps } from '../registry.js';

function TreeView({ rest }: ViewProps) {
  return <div data-testid="tree-path">{rest}</div>;
}

registerView({ id: 'tree', title: 'Tree', enabled: () => true, component: TreeView });
