/**
 * Walking a subtree (ls -R, tree) meets nodes it may not read: their ACL denies this session READ. One
 * such node must not hide the rest of the tree, so the walk reports it, goes on, and the command exits
 * PARTIAL at the end. Other failures (the session lost, a timeout) still end the walk.
 */
import { ZkError } from '@zkts/protocol';

import type { CommandContext } from './command.js';
import { CliError, ExitCode } from './exit-codes.js';

export interface NodeError {
  readonly code: string;
  readonly message: string;
}

export type ChildrenOutcome = { readonly children: string[] } | { readonly error: NodeError };

/**
 * The children of `path`, sorted. For a descendant (not the root of the walk): NO_AUTH becomes an error
 * outcome, and NO_NODE (deleted while we walked) no children.
 */
export async function childrenOf(path: string, isRoot: boolean, context: CommandContext): Promise<ChildrenOutcome> {
  const client = await context.session.client();
  try {
    const { children } = await client.getChildren(path, context.session.call(context.signal));
    return { children: [...children].sort() };
  } catch (error) {
    if (isRoot || !(error instanceof ZkError)) throw error;
    if (error.code === 'NO_NODE') return { children: [] };
    if (error.code === 'NO_AUTH') return { error: { code: error.code, message: error.message } };
    throw error;
  }
}

/** One stderr line (a JSON error object with --json) for a node that could not be read by `command`. */
export function reportUnreadable(context: CommandContext, command: string, path: string, error: NodeError): void {
  const { out } = context;
  const message = `cannot list the children of ${path}: ${error.message}`;
  out.error(out.json ? message : `${command}: ${message} [${error.code}]`, { code: error.code, command, path });
}

/** The error ending a walk that skipped `count` unreadable nodes (exit PARTIAL). */
export function partialError(count: number, what: string): CliError {
  return new CliError(ExitCode.PARTIAL, `partial ${what}: ${count} node${count === 1 ? '' : 's'} could not be read (see above)`);
}
