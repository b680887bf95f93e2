/** `tree [PATH]`: the subtree drawn like tree(1); JSON: one nested object. */
import { joinPath } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';

import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { ExitCode } from '../exit-codes.js';

export interface TreeNode {
  path: string;
  name: string;
  children: TreeNode[];
}

async function load(client: ZkClient, path: string, context: CommandContext): Promise<TreeNode> {
  const { children } = await client.getChildren(path, context.session.call(context.signal));
  const nodes = await Promise.all([...children].sort().map((child) => load(client, joinPath(path, child), context)));
  const name = path === '/' ? '/' : path.slice(path.lastIndexOf('/') + 1);
  return { path, name, children: nodes };
}

export function drawTree(root: TreeNode): string {
  const lines = [root.path];
  const draw = (node: TreeNode, indent: string): void => {
    node.children.forEach((child, index) => {
      const last = index === node.children.length - 1;
      lines.push(`${indent}${last ? '└── ' : '├── '}${child.name}`);
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
  details: 'PATH defaults to /.',
  options: {},
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = context.args.positionals[0] ?? '/';
    const client = await context.session.client();
    const root = await load(client, path, context);
    context.out.emit(root, () => drawTree(root));
    return ExitCode.OK;
  },
};
