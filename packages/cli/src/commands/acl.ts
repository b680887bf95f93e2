/** `acl get PATH`, `acl set PATH SPEC [-v VERSION]` and `acl digest USER:PASSWORD` (no server needed). */
import { digestOf, explainAclError, parseAclSpec } from '../acl-spec.js';
import { intOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { actionArgument, atMost, positional } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { readAll } from '../input.js';
import { aclRecord, formatAcl, statRecord } from '../output.js';

export const acl: Command = {
  name: 'acl',
  summary: "read or replace a node's ACL; compute a digest id",
  usage: 'get PATH | set PATH SPEC [-v VERSION] | digest USER:PASSWORD|-',
  details:
    'SPEC is comma-separated scheme:id:perms with perms from cdrwa, e.g.\n' +
    '  world:anyone:r,digest:alice:HASH:cdrwa,ip:10.0.0.0/8:rw,auth::cdrwa\n' +
    '`acl get` prints one entry per line in the same form. With -v, `acl set` fails (exit 4) unless the ACL\n' +
    'has that version (aversion).\n' +
    'A digest id is USER:HASH, HASH being base64(sha1(USER:PASSWORD)) as the server compares it; a password in\n' +
    'its place is refused (exit 64). `acl digest alice:secret` prints the id (`-` reads USER:PASSWORD from the\n' +
    'first line of standard input, out of the shell history); `--auth digest:alice:secret` then authenticates\n' +
    'as it. `auth::perms` grants the identities the session authenticated with, so it needs --auth (or --sasl,\n' +
    'a client certificate) first.',
  options: { version: { type: 'string', short: 'v', arg: 'VERSION', description: 'expected ACL version (set only)' } },
  async run(context: CommandContext): Promise<number> {
    const action = actionArgument(context, 'acl', ['get', 'set', 'digest']);
    if (action === 'digest') return digest(context);
    const path = positional(context, 1, 'PATH');
    if (action === 'get') {
      atMost(context, 2);
      const client = await context.session.client();
      const result = await client.getACL(path, context.session.call(context.signal));
      context.out.emit({ path, acl: aclRecord(result.acl), stat: statRecord(result.stat) }, () => formatAcl(result.acl));
      return ExitCode.OK;
    }
    atMost(context, 3);
    const entries = parseAclSpec(positional(context, 2, 'SPEC'));
    const version = intOption(context.args, 'version', -1);
    const client = await context.session.client();
    try {
      const stat = await client.setACL(path, entries, { ...context.session.call(context.signal), ...(version === undefined ? {} : { version }) });
      context.out.record({ path, stat: statRecord(stat) });
    } catch (error) {
      throw explainAclError(error, entries, context.global);
    }
    return ExitCode.OK;
  },
};

async function digest(context: CommandContext): Promise<number> {
  atMost(context, 2);
  let credentials = positional(context, 1, 'USER:PASSWORD');
  if (credentials === '-') {
    if (context.interactive) throw new UsageError("USER:PASSWORD from stdin ('-') is not available in the shell");
    credentials = Buffer.from(await readAll(context.io.stdin)).toString('utf8').split(/\r?\n/)[0] ?? '';
  }
  const id = digestOf(credentials);
  context.out.emit({ scheme: 'digest', id }, id);
  return ExitCode.OK;
}
