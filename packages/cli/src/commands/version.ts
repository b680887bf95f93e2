/**
 * `version`: the version of zkts and of the server it would talk to (from the server's `srvr` four-letter
 * word: the session protocol carries no version). zkCli's `version` prints only its own.
 */
import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { serverHosts } from '../hosts.js';
import { DEFAULT_CONNECT_TIMEOUT } from '../session.js';
import { tlsConnectionOptions } from '../tls-options.js';
import { cliVersion } from '../version.js';
import { fourLetter, parseFourLetter } from './four-letter.js';

export const versionCommand: Command = {
  name: 'version',
  summary: 'the version of zkts, and of the first server of --server that answers srvr',
  usage: '',
  details:
    'Prints `zkts VERSION`, then `server HOST:PORT: ZooKeeper VERSION`, asked with the srvr four-letter word\n' +
    '(it must be in 4lw.commands.whitelist). The zkts line comes first, whatever happens to the server; the\n' +
    'exit status says whether the server answered (69: none reachable, 1: srvr not allowed).\n' +
    '`zkts --version` prints only the zkts line. JSON: {"name","version","server":{"address","version"}}.',
  options: {},
  async run(context: CommandContext): Promise<number> {
    atMost(context, 0);
    const own = cliVersion();
    const timeout = context.global.timeout ?? DEFAULT_CONNECT_TIMEOUT;
    const tls = context.global.tls === undefined ? undefined : tlsConnectionOptions(context.global.tls);
    const unreachable: string[] = [];
    if (!context.out.json) context.out.line(`zkts ${own}`);
    for (const host of serverHosts(context.global.server)) {
      const address = `${host.host}:${host.port}`;
      let answer: string;
      try {
        answer = await fourLetter(host, 'srvr', timeout, tls);
      } catch (error) {
        unreachable.push(`${address}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      const version = parseFourLetter(answer)['Zookeeper version'];
      if (typeof version !== 'string') {
        context.out.record({ name: 'zkts', version: own, server: { address, version: null } });
        throw new CliError(ExitCode.ERROR, `${address} sent no version (is 'srvr' in 4lw.commands.whitelist?)`);
      }
      context.out.emit({ name: 'zkts', version: own, server: { address, version } }, `server ${address}: ZooKeeper ${version}`);
      return ExitCode.OK;
    }
    context.out.record({ name: 'zkts', version: own, server: null });
    throw new CliError(ExitCode.UNAVAILABLE, `no server answered: ${unreachable.join('; ')}`);
  },
};
