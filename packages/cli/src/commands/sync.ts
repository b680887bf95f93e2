/**
 * `sync PATH`: makes the server this session is connected to catch up with the leader (up to now) before the
 * session's next read, for a reader that must see another client's latest write. zkCli's `sync`.
 */
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode } from '../exit-codes.js';

export const sync: Command = {
  name: 'sync',
  summary: "make the connected server catch up with the leader (before this session's next read)",
  usage: 'PATH',
  details:
    'Useful in the shell, before reading what another client just wrote: reads that follow see at least\n' +
    'every write the leader had committed when the sync was made. Prints nothing; JSON: {"path","synced":true}.',
  options: {},
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = positional(context, 0, 'PATH');
    const client = await context.session.client();
    await client.sync(path, context.session.call(context.signal));
    context.out.record({ path, synced: true });
    return ExitCode.OK;
  },
};
