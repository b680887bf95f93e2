/** `acl get PATH` and `acl set PATH SPEC [-v VERSION]`. */
import { parseAclSpec } from '../acl-spec.js';
import { intOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { actionArgument, atMost, positional } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { aclRecord, formatAcl, statRecord } from '../output.js';

export const acl: Command = {
  name: 'acl',
  summary: "read or replace a node's ACL",
  usage: 'get PATH | set PATH SPEC [-v VERSION]',
  details:
    'SPEC is comma-separated scheme:id:perms with perms from cdrwa, e.g.\n' +
    '  world:anyone:r,digest:user:BASE64SHA1:cdrwa,ip:10.0.0.0/8:rw\n' +
    '`acl get` prints one entry per line in the same form. With -v, `acl set` fails (exit 4) unless the ACL\n' +
    'has that version (aversion).',
  options: { version: { type: 'string', short: 'v', arg: 'VERSION', description: 'expected ACL version (set only)' } },
  async run(context: CommandContext): Promise<number> {
    const action = actionArgument(context, 'acl', ['get', 'set']);
    const path = positional(context, 1, 'PATH');
    if (action === 'get') {
      atMost(context, 2);
      const client = await context.session.client();
      const result = await client.getACL(path, context.session.call(context.signal));
      context.out.emit({ path, acl: aclRecord(result.acl), stat: statRecord(result.stat) }, () => formatAcl(result.acl));
      return ExitCode.OK;
    }
    if (action === 'set') {
      atMost(context, 3);
      const entries = parseAclSpec(positional(context, 2, 'SPEC'));
      const version = intOption(context.args, 'version', -1);
      const client = await context.session.client();
      const stat = await client.setACL(path, entries, { ...context.session.call(context.signal), ...(version === undefined ? {} : { version }) });
      context.out.record({ path, stat: statRecord(stat) });
      return ExitCode.OK;
    }
    throw new UsageError(`unknown action '${action as string}' (get or set)`);
  },
};
