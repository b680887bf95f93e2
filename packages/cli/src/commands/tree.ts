/**
 * `tree [PATH]`: the subtree drawn like tree(1); JSON: one nested object. A node whose children this
 * session may not read is drawn with the reason, reported on stderr, and the exit status is PARTIAL (8).
 */
import { joinPath } from '@zkts/protocol';

import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { childrenOf, partialError, reportUnreadable } from '../partial.js';
import type { NodeError } from '../partial.js';

export interface TreeNode {
  path: string;
  name: string;
  children: TreeNode[];
  /** Set when the node's children could not be read. */
  error?: NodeError;
}

async function load(path: string, context: CommandContext, isRoot: boolean): Promise<TreeNode> {
  const name = path === '/' ? '/' : path.slice(path.lastIndexOf('/') + 1);
  const outcome = await childrenOf(path, isRoot, context);
  if ('error' in outcome) return { path, name, children: [], error: outcome.error };
  const nodes = await Promise.all(outcome.children.map((child) => load(joinPath(path, child), context, false)));
  return { path, name, children: nodes };
}

function unreadable(node: TreeNode): TreeNode[] {
  return [...(node.error === undefined ? [] : [node]), ...node.children.flatMap(unreadable)];
}

export function drawTree(root: TreeNode): string {
  const lines = [root.path];
  const draw = (node: TreeNode, indent: string): void => {
    node.children.forEach((child, index) => {
      const last = index === node.children.length - 1;
      const note = child.error === undefined ? '' : `  [children unreadable: ${child.error.code}]`;
      lines.push(`${indent}${last ? '└── ' : '├── '}${child.name}${note}`);
      draw(child, indent + (last ? '    ' : '│   '));
    });
  };
  draw(root, '');
  return lines.join('\n');
}

export const tree: Command = {
  name: 'tree',
  summary: 'draw the subtree under a node',
  usage: '[PATH]',
  details:
    'PATH defaults to /. A node whose children this session may not read (NO_AUTH) is drawn with\n' +
    '[children unreadable: NO_AUTH] (JSON: an "error" field), reported on stderr, and the exit status is 8\n' +
    '(partial).',
  options: {},
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = context.args.positionals[0] ?? '/';
    const root = await load(path, context, true);
    context.out.emit(root, () => drawTree(root));
    const skipped = unreadable(root);
    for (const node of skipped) if (node.error !== undefined) reportUnreadable(context, 'tree', node.path, node.error);
    if (skipped.length > 0) throw partialError(skipped.length, 'tree');
    return ExitCode.OK;
  },
};
