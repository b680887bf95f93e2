/**
 * `srvr`, `mntr`, `ruok`: ZooKeeper's four-letter words, sent over a plain socket (they bypass the session
 * protocol: the server answers in text and closes), or over TLS with --tls (a secureClientPort answers them
 * too). Asks each host of --server in turn, or all with --all.
 */
import { connect, isIP } from 'node:net';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ConnectionOptions } from 'node:tls';

import { flag } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost } from '../command.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { serverHosts } from '../hosts.js';
import type { HostPort } from '../hosts.js';
import { DEFAULT_CONNECT_TIMEOUT } from '../session.js';
import { tlsFailureText } from '../tls-failures.js';
import { tlsConnectionOptions } from '../tls-options.js';

/** `tls`: ask over TLS with these options (the session's: --tls-ca, a client certificate…). */
export function fourLetter(host: HostPort, word: string, timeout: number, tls?: ConnectionOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error: Error | undefined): void => {
      if (settled) return;
      settled = true;
      if (error === undefined) resolve(Buffer.concat(chunks).toString('utf8'));
      else reject(error);
    };
    // SNI carries host names only: an IP address is checked against the certificate without it.
    const socket: Socket =
      tls === undefined
        ? connect({ host: host.host, port: host.port })
        : tlsConnect({ servername: isIP(host.host) === 0 ? host.host : '', ...tls, host: host.host, port: host.port });
    socket.setTimeout(timeout, () => socket.destroy(new Error(`no answer within ${timeout} ms`)));
    socket.on(tls === undefined ? 'connect' : 'secureConnect', () => socket.end(word));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A TLS server may reset rather than close after its answer: what arrived is the answer.
      if (tls !== undefined && chunks.length > 0) return finish(undefined);
      const words = tls === undefined ? undefined : tlsFailureText(error.code ?? '', error.message);
      finish(words === undefined ? error : new Error(`${words} [${error.code ?? 'TLS'}]`, { cause: error }));
    });
    socket.on('close', () => finish(undefined));
  });
}

/** `Key: value` lines (srvr) and `key<TAB>value` lines (mntr) as one object; numbers stay numbers. */
export function parseFourLetter(text: string): Record<string, string | number> {
  const result: Record<string, string | number> = {};
  for (const line of text.split('\n')) {
    const match = /^([^:\t]+)(?::\s*|\t)(.*)$/.exec(line.trim());
    if (match === null) continue;
    const [, key = '', value = ''] = match;
    result[key.trim()] = /^-?\d+(\.\d+)?$/.test(value) && Number.isSafeInteger(Math.trunc(Number(value))) ? Number(value) : value;
  }
  return result;
}

function wordCommand(word: 'srvr' | 'mntr' | 'ruok', summary: string): Command {
  return {
    name: word,
    summary,
    usage: '[--all]',
    details:
      'Four-letter words must be allowed by the server (4lw.commands.whitelist). Without --all, the first host of\n' +
      '--server that answers is asked; with --all, every host is, each answer prefixed by its address.' +
      (word === 'ruok' ? '\nExit code 0 when every asked server answered "imok".' : ''),
    options: { all: { type: 'boolean', description: 'ask every host of --server' } },
    async run(context: CommandContext): Promise<number> {
      atMost(context, 0);
      const hosts = serverHosts(context.global.server);
      const all = flag(context.args, 'all');
      const timeout = context.global.timeout ?? DEFAULT_CONNECT_TIMEOUT;
      const tls = context.global.tls === undefined ? undefined : tlsConnectionOptions(context.global.tls);
      let failures = 0;
      let answered = 0;
      const unreachable: string[] = [];
      for (const host of hosts) {
        const address = `${host.host}:${host.port}`;
        let text: string;
        try {
          text = await fourLetter(host, word, timeout, tls);
        } catch (error) {
          unreachable.push(`${address}: ${error instanceof Error ? error.message : String(error)}`);
          continue;
        }
        answered++;
        if (text === '') {
          // The server closes without a word when the command is not whitelisted.
          failures++;
          context.out.error(`${word}: ${address} sent no answer (is '${word}' in 4lw.commands.whitelist?)`);
        } else if (word === 'ruok') {
          const ok = text.trim() === 'imok';
          if (!ok) failures++;
          context.out.emit({ server: address, ok, answer: text.trim() }, all ? `${address} ${text.trim()}` : text.trim());
        } else {
          context.out.emit({ server: address, ...parseFourLetter(text) }, all ? `# ${address}\n${text.trimEnd()}` : text.trimEnd());
        }
        if (!all) break;
      }
      if (answered === 0) throw new CliError(ExitCode.UNAVAILABLE, `no server answered: ${unreachable.join('; ')}`);
      // With --all, a host that could not be reached is a failure too.
      if (all) for (const line of unreachable) context.out.error(`${word}: ${line}`);
      return failures === 0 && (!all || unreachable.length === 0) ? ExitCode.OK : ExitCode.ERROR;
    },
  };
}

export const srvr = wordCommand('srvr', 'server details: version, latency, connections, mode, node count');
export const mntr = wordCommand('mntr', 'server metrics, one key and value per line');
export const ruok = wordCommand('ruok', 'is the server running? ("imok")');
