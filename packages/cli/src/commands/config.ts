/**
 * `config [-c] [-s] [-w]`: the ensemble's configuration as the servers publish it in /zookeeper/config
 * (dynamic reconfiguration). zkCli's `config`, with its flags: -c the client connect string, -s the stat,
 * -w a one-shot watch.
 */
import type { WatchOptions } from '@zkts/protocol';

import { flag } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { followWatch, WATCH_OPTION } from '../one-shot-watch.js';
import { formatStat, statRecord } from '../output.js';

/**
 * The client side of a dynamic configuration, as zkCli's -c prints it: `VERSION HOST:PORT,…` from the
 * `server.N=host:quorumPort:electionPort[:role];[clientHost:]clientPort` lines (a bare client port listens on
 * 0.0.0.0). Servers without a client address are left out.
 */
export function clientConnectString(config: string): string {
  let version = '';
  const hosts: string[] = [];
  for (const line of config.split('\n')) {
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    if (key === 'version') version = value;
    if (!key.startsWith('server.')) continue;
    const semicolon = value.indexOf(';');
    if (semicolon < 0) continue;
    const client = value.slice(semicolon + 1).trim();
    const colon = client.lastIndexOf(':');
    hosts.push(colon < 0 ? `0.0.0.0:${client}` : client);
  }
  return `${version} ${hosts.join(',')}`;
}

export const config: Command = {
  name: 'config',
  summary: 'the ensemble configuration (/zookeeper/config): members, roles, ports, version',
  usage: '[-c] [-s] [-w]',
  details:
    'As the server has it, e.g. server.1=zk1:2888:3888:participant;0.0.0.0:2181 and version=100000000\n' +
    '(a standalone server without reconfigEnabled publishes nothing: an empty line). -c prints only the\n' +
    "version and the client addresses (VERSION HOST:PORT,…); -s adds the node's stat; -w leaves a watch on it\n" +
    'and prints its event (a reconfiguration): the command waits for it, except in the shell.\n' +
    'JSON: {"config","stat"}, with -c also "clientConnectString".',
  options: {
    client: { type: 'boolean', short: 'c', description: 'only the version and the client connect string' },
    stat: { type: 'boolean', short: 's', description: "also print the config node's stat" },
    watch: WATCH_OPTION,
  },
  async run(context: CommandContext): Promise<number> {
    atMost(context, 0);
    const client = await context.session.client();
    const call = context.session.call(context.signal);
    const options: WatchOptions = flag(context.args, 'watch') ? { ...call, watch: true } : call;
    const result = await client.getConfig(options);
    const text = result.data.toString('utf8');
    const clientOnly = flag(context.args, 'client');
    if (context.out.json) {
      context.out.record({ config: text, ...(clientOnly ? { clientConnectString: clientConnectString(text) } : {}), stat: statRecord(result.stat) });
    } else {
      context.out.line(clientOnly ? clientConnectString(text) : text.replace(/\n$/, ''));
      if (flag(context.args, 'stat')) context.out.line(formatStat(result.stat));
    }
    return result.watch === undefined ? ExitCode.OK : followWatch(context, result.watch, 'watch on the configuration');
  },
};
