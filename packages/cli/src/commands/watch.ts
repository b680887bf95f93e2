/**
 * `watch PATH [--recursive]`: a persistent watch (addWatch), each event printed as it comes, until
 * interrupted. A line on stderr says when the watch is in place, so scripts know when to start changing.
 */
import { flag } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { eventRecord, formatEvent } from '../output.js';

export const watch: Command = {
  name: 'watch',
  summary: 'print the events of a node (or a subtree) until interrupted',
  usage: 'PATH [--recursive]',
  details:
    'Events: created, deleted, dataChanged, childrenChanged (not with --recursive). Ends with exit 0 on\n' +
    'SIGINT/SIGTERM, with exit 69 when the session is lost. Needs ZooKeeper 3.6 or later.\n' +
    'JSON: {"type","path"}, plus "zxid" only from servers that send one with events (before 3.9 they send -1).',
  options: { recursive: { type: 'boolean', short: 'r', description: 'watch the whole subtree' } },
  optionHints: { '-m': "zkCli's addWatch -m MODE: watch PATH is PERSISTENT, watch PATH --recursive is PERSISTENT_RECURSIVE" },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = positional(context, 0, 'PATH');
    const mode = flag(context.args, 'recursive') ? 'persistent-recursive' : 'persistent';
    const client = await context.session.client();
    const persistent = await client.addWatch(path, mode, context.session.call(context.signal));
    context.out.note(`watching ${path} (${mode}); interrupt to stop`);
    const stop = (): void => void persistent.remove().catch(() => undefined);
    if (context.signal.aborted) stop();
    context.signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const event of persistent) context.out.emit(eventRecord(event), formatEvent(event));
    } finally {
      context.signal.removeEventListener('abort', stop);
    }
    if (context.signal.aborted) return ExitCode.OK;
    throw new CliError(ExitCode.UNAVAILABLE, `the watch on ${path} ended: session lost (state ${client.state})`);
  },
};
