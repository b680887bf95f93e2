/**
 * `create PATH [DATA|-] [ACL] [-e] [-s] [-c] [-t|--ttl MS] [-p] [--acl SPEC]`: make a node, print its path.
 * The ACL as a third argument and -t are zkCli's spellings of --acl and --ttl.
 */
import { parentPath } from '@zkts/protocol';
import type { CreateMode, CreateOptions } from '@zkts/protocol';

import { explainAclError, parseAclSpec } from '../acl-spec.js';
import { flag, intOption, stringOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { dataArgument } from '../input.js';
import { statRecord } from '../output.js';

export function createMode(ephemeral: boolean, sequential: boolean, container: boolean, ttl: number | undefined): CreateMode {
  if (container && (ephemeral || sequential || ttl !== undefined)) throw new UsageError('-c (container) cannot be combined with -e, -s or --ttl');
  if (ephemeral && ttl !== undefined) throw new UsageError('--ttl cannot be combined with -e (ephemeral nodes have no TTL)');
  if (container) return 'container';
  if (ttl !== undefined) return sequential ? 'persistent-sequential-ttl' : 'persistent-ttl';
  if (ephemeral) return sequential ? 'ephemeral-sequential' : 'ephemeral';
  return sequential ? 'persistent-sequential' : 'persistent';
}

export const create: Command = {
  name: 'create',
  summary: 'create a node and print its path',
  usage: 'PATH [DATA|-] [ACL] [-e] [-s] [-c] [-t|--ttl MS] [-p] [--acl SPEC]',
  details:
    'DATA `-` reads the data from standard input. An ephemeral node (-e) lives as long as the session, i.e. this\n' +
    'command (useful in the shell). --ttl needs a server with extendedTypesEnabled=true. -p creates missing\n' +
    'parents (persistent, empty); the node itself must not exist (exit 3). ACL after DATA is the same as --acl\n' +
    "(zkCli's form: create /a data world:anyone:r).",
  options: {
    ephemeral: { type: 'boolean', short: 'e', description: 'ephemeral: deleted when the session ends' },
    sequential: { type: 'boolean', short: 's', description: 'append a 10-digit sequence number to the name' },
    container: { type: 'boolean', short: 'c', description: 'container: deleted by the server once its last child is gone' },
    ttl: { type: 'string', short: 't', arg: 'MS', description: 'persistent with a TTL: deleted after MS without changes or children' },
    parents: { type: 'boolean', short: 'p', description: 'create missing parent nodes' },
    acl: { type: 'string', arg: 'SPEC', description: 'ACL, e.g. world:anyone:r,digest:user:HASH:cdrwa (default world:anyone:cdrwa)' },
  },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 3);
    const path = positional(context, 0, 'PATH');
    const ttl = intOption(context.args, 'ttl', 1);
    const mode = createMode(flag(context.args, 'ephemeral'), flag(context.args, 'sequential'), flag(context.args, 'container'), ttl);
    const aclOption = stringOption(context.args, 'acl');
    const aclArgument = context.args.positionals[2];
    if (aclOption !== undefined && aclArgument !== undefined) throw new UsageError('the ACL is given twice: as --acl and after DATA');
    const aclSpec = aclOption ?? aclArgument;
    const data = await dataArgument(context, context.args.positionals[1]);
    const options: CreateOptions = { ...context.session.call(context.signal), mode };
    if (ttl !== undefined) options.ttl = ttl;
    if (aclSpec !== undefined) options.acl = parseAclSpec(aclSpec);
    const client = await context.session.client();
    if (flag(context.args, 'parents')) {
      const parent = parentPath(path);
      if (parent !== '/') await client.mkdirp(parent, context.session.call(context.signal));
    }
    const created = await client.create(path, data, options).catch((error: unknown) => {
      throw options.acl === undefined ? error : explainAclError(error, options.acl, context.global);
    });
    context.out.emit({ path: created.path, stat: statRecord(created.stat) }, created.path);
    // Outside the shell the session is this command's: the node is gone milliseconds later, which surprises
    // whoever expected `create -e` to leave something behind.
    if (!context.interactive && (mode === 'ephemeral' || mode === 'ephemeral-sequential')) {
      context.out.note(`zkts: create: ${created.path} is ephemeral: it goes away when this command's session ends, now (zkts shell keeps a session open)`);
    }
    return ExitCode.OK;
  },
};
