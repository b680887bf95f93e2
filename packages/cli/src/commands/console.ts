/**
 * `zkts console`: a web console over the --server ensemble, served from this process on 127.0.0.1. Prints the
 * URL (with its access token) and serves until SIGINT/SIGTERM. The console's own client uses the global
 * options (auth, SASL, TLS, timeouts), like every other command.
 */
import { flag, intOption, stringOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { startConsole } from '../console/app.js';
import { CliError, ExitCode, UsageError } from '../exit-codes.js';
import { parseListenAddress } from '../hosts.js';
import { Session } from '../session.js';
import { untilAborted } from '../signals.js';
import { TapProxyListenError } from '../tap-proxy.js';
import { tlsConnectionOptions } from '../tls-options.js';
import { cliVersion } from '../version.js';

const DEFAULT_PORT = 8080;
/** 64 MiB: what a server with a raised jute.maxbuffer may send back; the client allocates per reply, not up front. */
const CONSOLE_MAX_PACKET = 64 * 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export const consoleCommand: Command = {
  name: 'console',
  summary: 'a web console: browse and edit nodes live, see recipes, sessions, traffic and history',
  usage: '[--port PORT] [--host HOST] [--read-only] [--data-dir DIR] [--proxy [HOST:]PORT]',
  details:
    'Serves a web console for the --server ensemble and prints its URL, which carries a random access token:\n' +
    'open that URL; a request without the token is refused. It listens on 127.0.0.1 unless --host says\n' +
    'otherwise. --read-only refuses every write on the console side. --proxy [HOST:]PORT also listens there as\n' +
    'a decoding proxy to the server: applications pointed at it show up live in the Traffic view. --data-dir\n' +
    "DIR (the server's dataDir) adds the History view: the transaction log, filterable by path and session.\n" +
    'Runs until SIGINT/SIGTERM (exit 0).\n' +
    '\n' +
    '  zkts --server 127.0.0.1:2181 console\n' +
    '  zkts --server zk1:2181 console --read-only --proxy 2182',
  options: {
    port: { type: 'string', arg: 'PORT', description: `the console's HTTP port (default ${DEFAULT_PORT}; 0: a free one)` },
    host: { type: 'string', arg: 'HOST', description: 'address to listen on (default 127.0.0.1)' },
    'read-only': { type: 'boolean', description: 'refuse every write' },
    'data-dir': { type: 'string', arg: 'DIR', description: "the server's dataDir, for the History view" },
    proxy: { type: 'string', arg: '[HOST:]PORT', description: 'also run a decoding proxy there (Traffic view)' },
  },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 0);
    if (context.interactive) throw new UsageError('console runs on its own, not inside the shell');
    const port = intOption(context.args, 'port') ?? DEFAULT_PORT;
    if (port > 65535) throw new UsageError(`--port must be 0..65535, got ${port}`);
    const host = stringOption(context.args, 'host') ?? '127.0.0.1';
    const dataDir = stringOption(context.args, 'data-dir');
    const proxyText = stringOption(context.args, 'proxy');
    const proxy = proxyText === undefined ? undefined : parseListenAddress(proxyText, '--proxy');
    // The proxy decodes the bytes it forwards, so it needs them in the clear: it cannot relay to a TLS port.
    if (proxy !== undefined && context.global.tls !== undefined) throw new UsageError("--proxy relays plain TCP to the first host of --server, so it cannot be combined with --tls");
    // The console outlives any one session: after an expiry it carries on in a new one (the page shows the state).
    // Replies can be larger than a command's: a listing of 100,000 children or a 1 MiB node with its framing.
    const session = new Session(context.global, context.out, { renew: true, maxPacket: CONSOLE_MAX_PACKET });
    const client = await session.client();
    let running;
    try {
      running = await startConsole({
        client,
        server: session.server,
        host,
        port,
        readOnly: flag(context.args, 'read-only'),
        version: cliVersion(),
        ...(dataDir === undefined ? {} : { dataDir }),
        ...(proxy === undefined ? {} : { proxy }),
        ...(context.global.tls === undefined ? {} : { tls: tlsConnectionOptions(context.global.tls) }),
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      await session.close();
      if (error instanceof TapProxyListenError) throw new CliError(ExitCode.USAGE, `--proxy ${proxyText ?? ''}: ${error.message}`, { cause: error });
      if (code === 'EADDRINUSE') throw new CliError(ExitCode.USAGE, `port ${port} on ${host} is in use: pick another with --port (0: a free one)`, { cause: error });
      throw error;
    }
    if (!LOOPBACK.has(host)) context.out.note(`zkts console: warning: listening on ${host}, beyond this machine: the token in the URL is all that guards it (plain HTTP)`);
    context.out.note(`zkts console: serving ${session.server} until Ctrl-C; open the URL below`);
    if (running.proxy !== null) context.out.note(`zkts console: decoding proxy on ${running.proxy}: point clients there to see their traffic`);
    context.io.stdout.write(`${running.url}\n`);
    await untilAborted(context.signal);
    await running.close();
    await session.close();
    return 0;
  },
};
