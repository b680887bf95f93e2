/**
 * `ephemerals [PATH]`: the ephemeral nodes this session owns (under PATH), one path per line. zkCli's
 * `getEphemerals`. A command line's session is new, so it owns none: this is for the shell.
 */
import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { ExitCode } from '../exit-codes.js';

export const ephemerals: Command = {
  name: 'ephemerals',
  summary: 'the ephemeral nodes of this session, under PATH (in the shell: those made with create -e)',
  usage: '[PATH]',
  details:
    'PATH (default /) is a prefix of the paths, as the server compares them: /app also matches /apple.\n' +
    'Sorted, one per line. Each command line has a session of its own, which owns no node yet: useful in the\n' +
    'shell. Needs ZooKeeper 3.6 or later. JSON: {"path","ephemerals":[…]}.',
  options: {},
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = context.args.positionals[0] ?? '/';
    const client = await context.session.client();
    const paths = [...(await client.getEphemerals(path, context.session.call(context.signal)))].sort();
    if (context.out.json) context.out.record({ path, ephemerals: paths });
    else for (const p of paths) context.out.line(p);
    return ExitCode.OK;
  },
};
