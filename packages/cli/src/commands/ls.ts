/** `ls [-R] PATH`: the children of a node, or with -R every descendant as a full path. */
import { joinPath } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';

import { flag } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { ExitCode } from '../exit-codes.js';

/** Depth-first, children sorted, the node itself first. Siblings are fetched in parallel (pipelined). */
export async function* walk(client: ZkClient, path: string, context: CommandContext): AsyncGenerator<string> {
  yield path;
  const { children } = await client.getChildren(path, context.session.call(context.signal));
  const sorted = [...children].sort();
  for (const child of sorted) yield* walk(client, joinPath(path, child), context);
}

export const ls: Command = {
  name: 'ls',
  summary: 'list the children of a node',
  usage: '[-R] [PATH]',
  details: 'PATH defaults to /. With -R, print the node and every descendant as a full path, depth first.',
  options: { recursive: { type: 'boolean', short: 'R', description: 'list every descendant' } },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = context.args.positionals[0] ?? '/';
    const client = await context.session.client();
    if (flag(context.args, 'recursive')) {
      for await (const node of walk(client, path, context)) context.out.emit({ path: node }, node);
      return ExitCode.OK;
    }
    const { children } = await client.getChildren(path, context.session.call(context.signal));
    const sorted = [...children].sort();
    if (context.out.json) context.out.record({ path, children: sorted });
    else for (const child of sorted) context.out.line(child);
    return ExitCode.OK;
  },
};
