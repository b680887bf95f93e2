/**
 * `zkts proxy --listen [HOST:]PORT --upstream HOST:PORT`: forwards every byte unchanged in both directions
 * and prints the decoded conversation of each connection as it happens. Decoding is a tap beside the byte
 * path: whatever the bytes are (garbage, hostile lengths), they are still forwarded, and a decode failure is
 * one error line, never a crash.
 */
import { flag, intOption, stringOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { CliError, ExitCode, UsageError } from '../exit-codes.js';
import { parseHostPort, parseListenAddress } from '../hosts.js';
import { formatConversationLine, conversationRecord } from '../output.js';
import { TranscriptRecorder } from '../recorder.js';
import { listenTapProxy, TapProxyListenError } from '../tap-proxy.js';
import type { ConnectionTap } from '../tap-proxy.js';
import { formatReport, TrafficStats } from '../stats/index.js';
import type { TranscriptConnection } from '../transcript.js';

export const proxy: Command = {
  name: 'proxy',
  summary: 'a transparent TCP proxy that prints the decoded conversation live',
  usage: '--listen [HOST:]PORT --upstream HOST:PORT [--record FILE] [--stats [--stats-every S]]',
  details:
    'Each line starts with the connection id (#N); replies show the request latency. PORT 0 picks a free\n' +
    'port; the line `zkts proxy: listening on HOST:PORT` on stderr says which. --record FILE writes the\n' +
    'frames as a transcript that `zkts decode FILE` reads. Runs until SIGINT/SIGTERM (exit 0).\n' +
    '--stats analyses the traffic instead of printing each frame (see `zkts decode --help`): the report\n' +
    'is printed when the proxy stops, and every S seconds with --stats-every S.',
  options: {
    listen: { type: 'string', arg: '[HOST:]PORT', description: 'where to accept clients (HOST defaults to 127.0.0.1)' },
    upstream: { type: 'string', arg: 'HOST:PORT', description: 'the ZooKeeper server to forward to' },
    record: { type: 'string', arg: 'FILE', description: 'write a frame transcript to FILE' },
    stats: { type: 'boolean', description: 'print a traffic analysis (latency, errors, fan-out, sessions) instead of the frames' },
    'stats-every': { type: 'string', arg: 'S', description: 'with --stats: also print the analysis every S seconds' },
  },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 0);
    const listenText = stringOption(context.args, 'listen');
    const upstreamText = stringOption(context.args, 'upstream');
    if (listenText === undefined) throw new UsageError('missing --listen');
    if (upstreamText === undefined) throw new UsageError('missing --upstream');
    const listen = parseListenAddress(listenText, '--listen');
    const upstream = parseHostPort(upstreamText, undefined, '--upstream');
    const recordFile = stringOption(context.args, 'record');
    const recorder = recordFile === undefined ? undefined : new TranscriptRecorder(recordFile, `zkts proxy to ${upstreamText}`);
    const { out } = context;
    const stats = flag(context.args, 'stats') ? new TrafficStats() : undefined;
    const every = intOption(context.args, 'stats-every', 1);
    const printStats = (): void => {
      if (stats === undefined) return;
      const report = stats.report();
      out.emit(report, () => formatReport(report));
    };
    const tapProxy = await listenTapProxy({
      listen,
      upstream,
      open({ id, client: clientAddress, start }): ConnectionTap {
        let recorded: TranscriptConnection | undefined;
        if (stats !== undefined) stats.open(id, clientAddress, start);
        else out.emit({ conn: id, event: 'open', client: clientAddress, upstream: upstreamText }, `#${id} open ${clientAddress} -> ${upstreamText}`);
        if (recorder !== undefined) recorded = recorder.open(id, clientAddress, upstreamText, start);
        return {
          lines(lines): void {
            for (const line of lines) {
              if (recorder !== undefined && recorded !== undefined && line.frame !== undefined) recorder.frame(recorded, line.dir, line.time, line.frame);
              if (stats !== undefined) stats.add(line);
              else out.emit(conversationRecord(line), () => formatConversationLine(line));
            }
          },
          closed(time, why): void {
            if (stats !== undefined) stats.close(id, time, why);
            else out.emit({ conn: id, event: 'close', reason: why }, `#${id} closed (${why})`);
            if (recorder !== undefined) void recorder.save().catch((error: unknown) => out.error(`proxy: cannot write ${recordFile}: ${String(error)}`));
          },
        };
      },
      tapError: (conn, error) => out.error(`proxy: #${conn}: ${error instanceof Error ? error.message : String(error)}`),
    }).catch((error: unknown) => {
      throw error instanceof TapProxyListenError ? new CliError(ExitCode.UNAVAILABLE, `cannot listen on ${listenText}: ${error.reason}`) : error;
    });
    out.note(`zkts proxy: listening on ${listen.host}:${tapProxy.port}, forwarding to ${upstreamText}`);

    const timer = stats !== undefined && every !== undefined ? setInterval(printStats, every * 1000) : undefined;
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      context.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    if (timer !== undefined) clearInterval(timer);
    // Each connection's tap hears it closed before close() resolves: the final report counts every end.
    await tapProxy.close();
    printStats();
    if (recorder !== undefined) await recorder.save();
    return ExitCode.OK;
  },
};
