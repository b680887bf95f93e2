/**
 * zkCli's `-w` (ls -w, get -w, stat -w, config -w): the read leaves a one-shot watch, and its event is
 * printed when it comes. On the command line the command then waits for that event (or Ctrl-C), since its
 * session ends with it; in the shell the command returns and the event is printed whenever it fires.
 */
import type { WatchEvent } from '@zkts/protocol';

import type { CommandContext } from './command.js';
import { CliError, ExitCode } from './exit-codes.js';
import { eventRecord, formatEvent } from './output.js';

export const WATCH_OPTION = { type: 'boolean', short: 'w', description: 'leave a one-shot watch and print its event (zkCli -w): waits for it, except in the shell' } as const;

/** Reports the event of `watch` (see the module comment); `what` names the watch (`data watch on /a`) in the notes. */
export async function followWatch(context: CommandContext, watch: Promise<WatchEvent>, what: string): Promise<number> {
  if (context.deferWatch !== undefined) {
    context.deferWatch(watch, context.out);
    return ExitCode.OK;
  }
  context.out.note(`waiting for the ${what} to fire; interrupt to stop`);
  const aborted = new Promise<undefined>((resolve) => {
    if (context.signal.aborted) resolve(undefined);
    context.signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  let event: WatchEvent | undefined;
  try {
    event = await Promise.race([watch, aborted]);
  } catch (error) {
    throw new CliError(ExitCode.UNAVAILABLE, `the ${what} ended without an event: the session was lost`, { cause: error });
  }
  if (event !== undefined) context.out.emit(eventRecord(event), formatEvent(event));
  return ExitCode.OK;
}
