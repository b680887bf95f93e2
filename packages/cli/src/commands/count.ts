/** `count PATH`: how many nodes are under PATH, at any depth (the node itself not counted). zkCli's `getAllChildrenNumber`. */
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode } from '../exit-codes.js';

export const count: Command = {
  name: 'count',
  summary: 'the number of nodes under PATH, at any depth (one request: the server counts)',
  usage: 'PATH',
  details: 'The node itself is not counted; its children, theirs and so on are. Needs ZooKeeper 3.6 or later.\nJSON: {"path","count"}.',
  options: {},
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = positional(context, 0, 'PATH');
    const client = await context.session.client();
    const total = await client.getAllChildrenNumber(path, context.session.call(context.signal));
    context.out.emit({ path, count: total }, String(total));
    return ExitCode.OK;
  },
};
