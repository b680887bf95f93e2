/**
 * `rm PATH [-r] [-v VERSION]`: delete a node, or with -r the node and everything under it. -r walks the subtree
 * itself (rather than the library's removeRecursive, which is quiet about a missing node by design) so that a
 * missing PATH is NO_NODE as for a plain `rm`, and a failure part-way says how much is already gone and where
 * it stopped: a recursive delete is not atomic, and the person has to know what is left.
 */
import { joinPath, ZkError } from '@zkts/protocol';
import type { CallOptions, ZkClient } from '@zkts/protocol';

import { flag, intOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { CliError, ExitCode, exitCodeFor, UsageError } from '../exit-codes.js';
import { messageOf } from '../session.js';

export const rm: Command = {
  name: 'rm',
  summary: 'delete a node',
  usage: 'PATH [-r] [-v VERSION]',
  details:
    'Without -r a node with children is not deleted (exit 6). A missing PATH is exit 2, with or without -r.\n' +
    '-r deletes children before parents, siblings in name order; nodes deleted meanwhile by someone else are\n' +
    'fine. It is not atomic: when it fails part-way (a node it may not read or delete) the error says how many\n' +
    'nodes were deleted and at which path it stopped. Prints nothing; JSON: {"path","deleted":true} (with -r\n' +
    'also "removed", the number of nodes deleted).',
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
    const options = context.session.call(context.signal);
    if (!recursive) {
      await client.delete(path, { ...options, ...(version === undefined ? {} : { version }) });
      context.out.record({ path, deleted: true });
      return ExitCode.OK;
    }
    const removal = new Removal(client, options);
    try {
      await removal.subtree(path, true);
    } catch (error) {
      // Failing on PATH itself before deleting anything is the plain error (a missing PATH: NO_NODE, exit 2).
      throw removal.removed === 0 && removal.failedAt === path ? error : partial(error, path, removal);
    }
    context.out.record({ path, deleted: true, removed: removal.removed });
    return ExitCode.OK;
  },
};

function isNoNode(error: unknown): boolean {
  return error instanceof ZkError && error.code === 'NO_NODE';
}

/** A depth-first delete that counts what it deleted and remembers where it failed. */
class Removal {
  removed = 0;
  failedAt: string | undefined;
  private readonly client: ZkClient;
  private readonly options: CallOptions;

  constructor(client: ZkClient, options: CallOptions) {
    this.client = client;
    this.options = options;
  }

  /** `top`: the PATH the person named, which must exist; below it, a node gone meanwhile is no failure. */
  async subtree(path: string, top = false): Promise<void> {
    let children: string[];
    try {
      children = (await this.client.getChildren(path, this.options)).children;
    } catch (error) {
      if (!top && isNoNode(error)) return;
      this.failedAt = path;
      throw error;
    }
    for (const child of children.sort()) await this.subtree(joinPath(path, child));
    // The root itself cannot be deleted; its subtree can.
    if (path === '/') return;
    try {
      await this.client.delete(path, this.options);
      this.removed++;
    } catch (error) {
      if (isNoNode(error)) return;
      this.failedAt = path;
      throw error;
    }
  }
}

/** The failure, with what was already deleted: the code (and so the exit status) stays the server's. */
function partial(error: unknown, path: string, removal: Removal): CliError {
  const code = error instanceof ZkError ? error.code : undefined;
  const where = removal.failedAt === undefined ? '' : ` at ${removal.failedAt}`;
  const message = `deleted ${removal.removed} node(s) under ${path}, then failed${where}: ${messageOf(error)}${code === undefined ? '' : ` [${code}]`}`;
  return new CliError(exitCodeFor(error), message, {
    cause: error,
    details: { ...(code === undefined ? {} : { code }), removed: removal.removed, ...(removal.failedAt === undefined ? {} : { failedPath: removal.failedAt }) },
  });
}
