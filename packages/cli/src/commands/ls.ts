/**
 * `ls [-R] PATH`: the children of a node, or with -R every descendant as a full path. A descendant this
 * session may not read is reported (stderr; with --json also as `{"path","error"}` in the listing) and the
 * walk goes on; the exit status is then PARTIAL (8).
 */
import { joinPath } from '@zkts/protocol';

import { flag } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { childrenOf, partialError, reportUnreadable } from '../partial.js';
import type { NodeError } from '../partial.js';

export interface WalkEntry {
  readonly path: string;
  /** Set when the node's children could not be read. */
  readonly error?: NodeError;
}

/** Depth-first, children sorted, the node itself first. */
export async function* walk(path: string, context: CommandContext, isRoot = true): AsyncGenerator<WalkEntry> {
  const outcome = await childrenOf(path, isRoot, context);
  if ('error' in outcome) {
    yield { path, error: outcome.error };
    return;
  }
  yield { path };
  for (const child of outcome.children) yield* walk(joinPath(path, child), context, false);
}

export const ls: Command = {
  name: 'ls',
  summary: 'list the children of a node',
  usage: '[-R] [PATH]',
  details:
    'PATH defaults to /. With -R, print the node and every descendant as a full path, depth first.\n' +
    'A descendant whose children this session may not read (NO_AUTH) is still listed, reported on stderr\n' +
    '(with --json also as {"path","error":{"code","message"}} in the listing), and the walk goes on;\n' +
    'the exit status is then 8 (partial).',
  options: { recursive: { type: 'boolean', short: 'R', description: 'list every descendant' } },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = context.args.positionals[0] ?? '/';
    const client = await context.session.client();
    if (flag(context.args, 'recursive')) {
      let unreadable = 0;
      for await (const entry of walk(path, context)) {
        context.out.emit(entry, entry.path);
        if (entry.error === undefined) continue;
        unreadable++;
        reportUnreadable(context, 'ls', entry.path, entry.error);
      }
      if (unreadable > 0) throw partialError(unreadable, 'listing');
      return ExitCode.OK;
    }
    const { children } = await client.getChildren(path, context.session.call(context.signal));
    const sorted = [...children].sort();
    if (context.out.json) context.out.record({ path, children: sorted });
    else for (const child of sorted) context.out.line(child);
    return ExitCode.OK;
  },
};
