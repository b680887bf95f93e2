/** `rm PATH [-r] [-v VERSION]`: delete a node, or with -r the node and everything under it. */
import { flag, intOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';

export const rm: Command = {
  name: 'rm',
  summary: 'delete a node',
  usage: 'PATH [-r] [-v VERSION]',
  details: 'Without -r a node with children is not deleted (exit 6). Prints nothing; JSON: {"path","deleted":true}.',
  options: {
    recursive: { type: 'boolean', short: 'r', description: 'delete the node and its whole subtree' },
    version: { type: 'string', short: 'v', arg: 'VERSION', description: 'expected data version (-1: any)' },
  },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = positional(context, 0, 'PATH');
    const version = intOption(context.args, 'version', -1);
    const recursive = flag(context.args, 'recursive');
    if (recursive && version !== undefined) throw new UsageError('-v cannot be combined with -r');
    const client = await context.session.client();
    if (recursive) await client.removeRecursive(path, context.session.call(context.signal));
    else await client.delete(path, { ...context.session.call(context.signal), ...(version === undefined ? {} : { version }) });
    context.out.record({ path, deleted: true });
    return ExitCode.OK;
  },
};
