/**
 * `auth SCHEME:CREDENTIALS`: add credentials to the session and print the resulting identities. In the
 * shell they stay for the rest of the session; on the command line, `--auth` does the same for any command.
 */
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { parseAuth } from '../global-options.js';
import { printIdentities } from './whoami.js';

export const auth: Command = {
  name: 'auth',
  summary: 'authenticate the session (e.g. digest:user:pass) and print its identities',
  usage: 'SCHEME:CREDENTIALS',
  details:
    'In `zkts shell`, the credentials apply to every later command. Outside the shell, pass --auth\n' +
    'SCHEME:CREDENTIALS to the command that needs them. Exit 5 when the server rejects the credentials.',
  options: {},
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const { scheme, auth: credentials } = parseAuth(positional(context, 0, 'SCHEME:CREDENTIALS'));
    const client = await context.session.client();
    await client.addAuth(scheme, credentials, context.session.call(context.signal));
    await printIdentities(context);
    return ExitCode.OK;
  },
};
