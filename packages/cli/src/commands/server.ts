/**
 * `zkts server [--port 2181] [--host 127.0.0.1] [--data-dir DIR]`: a ZooKeeper 3.8 standalone server
 * (@zkts/server) in this process, for development, tests and demos. Prints its connect string on stdout, serves
 * until SIGINT/SIGTERM, then closes every connection and exits 0.
 */
import { startServer } from '@zkts/server';
import type { ServerOptions } from '@zkts/server';

import { intOption, stringOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { CliError, ExitCode, UsageError } from '../exit-codes.js';
import { untilAborted } from '../signals.js';

/** ZooKeeper's client port. */
const DEFAULT_PORT = 2181;

/** startServer's options, with the data directory the server takes once it persists. */
type StartOptions = ServerOptions & { dataDir?: string };

export const server: Command = {
  name: 'server',
  summary: 'run an in-memory ZooKeeper 3.8 server (no Java) until Ctrl-C',
  usage: '[--port PORT] [--host HOST] [--data-dir DIR]',
  details:
    'Starts @zkts/server, a standalone ZooKeeper 3.8 server written in TypeScript, in this process, and prints\n' +
    'its connect string. Any ZooKeeper client can use it. Ctrl-C (SIGINT) or SIGTERM closes every connection\n' +
    'and exits 0.\n' +
    '\n' +
    'It is for development, tests, demos and single-node tools: one node, no quorum, no replication. The data\n' +
    'lives in memory and goes when the server stops; --data-dir passes a data directory on to the server (see\n' +
    "@zkts/server's README for what it keeps there). Use ZooKeeper when data matters\n" +
    '(docs/guides/embedded-server.md).\n' +
    '\n' +
    '  zkts server &                  # 127.0.0.1:2181\n' +
    '  zkts server --port 0           # a free port: the first line of stdout says which',
  options: {
    port: { type: 'string', arg: 'PORT', description: `TCP port (default ${DEFAULT_PORT}; 0: a free one)` },
    host: { type: 'string', arg: 'HOST', description: 'address to listen on (default 127.0.0.1)' },
    'data-dir': { type: 'string', arg: 'DIR', description: "the server's data directory, passed on as its dataDir" },
  },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 0);
    const port = intOption(context.args, 'port') ?? DEFAULT_PORT;
    if (port > 65535) throw new UsageError(`--port must be 0..65535, got ${port}`);
    const host = stringOption(context.args, 'host') ?? '127.0.0.1';
    const dataDir = stringOption(context.args, 'data-dir');
    const { out } = context;
    const options: StartOptions = {
      port,
      host,
      logger: { debug() {}, info() {}, warn: (message) => out.note(`zkts server: ${message}`) },
      ...(dataDir === undefined ? {} : { dataDir }),
    };
    const running = await startServer(options).catch((error: unknown) => {
      throw new CliError(ExitCode.UNAVAILABLE, `cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    });
    out.emit({ connectString: running.connectString, host: running.host, port: running.port }, running.connectString);
    const where = dataDir === undefined ? 'in memory' : `data dir ${dataDir}`;
    out.note(`zkts server: ZooKeeper 3.8 (${where}) on ${running.connectString}; Ctrl-C stops it`);
    await untilAborted(context.signal);
    await running.close();
    return ExitCode.OK;
  },
};
