/** `whoami`: the identities the server associates with this session (ZooKeeper 3.7+). */
import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { ExitCode } from '../exit-codes.js';

export async function printIdentities(context: CommandContext): Promise<void> {
  const client = await context.session.client();
  const identities = await client.whoAmI(context.session.call(context.signal));
  const list = identities.map((i) => ({ scheme: i.authScheme, user: i.user }));
  context.out.emit({ identities: list }, () => list.map((i) => `${i.scheme} ${i.user}`).join('\n'));
}

export const whoami: Command = {
  name: 'whoami',
  summary: 'print the identities of this session (scheme and user, one per line)',
  usage: '',
  details: 'Needs ZooKeeper 3.7 or later. Use with --auth to check credentials.',
  options: {},
  async run(context: CommandContext): Promise<number> {
    atMost(context, 0);
    await printIdentities(context);
    return ExitCode.OK;
  },
};
