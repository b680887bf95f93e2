/** Options every command accepts, and how they become GlobalOptions. */
import { flag, intOption, listOption, stringOption } from './args.js';
import type { OptionSpecs, ParsedArgs } from './args.js';
import type { GlobalOptions } from './command.js';
import { UsageError } from './exit-codes.js';
import { parseSasl } from './sasl.js';
import { TLS_OPTIONS, tlsSettings } from './tls-options.js';

export const DEFAULT_SERVER = '127.0.0.1:2181';

export const GLOBAL_OPTIONS: OptionSpecs = {
  server: { type: 'string', arg: 'HOSTS[/chroot]', description: `ZooKeeper connect string (env ZKTS_SERVER, default ${DEFAULT_SERVER})` },
  timeout: { type: 'string', arg: 'MS', description: 'give up after MS: connecting and each request (lock: waiting for the lock)' },
  'session-timeout': { type: 'string', arg: 'MS', description: 'session timeout to request (ephemeral nodes and locks vanish this long after a crash)' },
  auth: { type: 'string', arg: 'SCHEME:CRED', multiple: true, description: 'authenticate first, e.g. --auth digest:user:pass (repeatable)' },
  sasl: { type: 'string', arg: 'MECH[:…]', description: 'SASL on every connection: digest:USER:PASSWORD, or kerberos[:PRINCIPAL] (needs @zkts/sasl-kerberos)' },
  'allow-read-only': { type: 'boolean', description: 'accept a read-only server (cut off from its quorum): reads work, writes fail NOT_READ_ONLY (zkCli -r)' },
  ...TLS_OPTIONS,
  json: { type: 'boolean', description: 'machine output: one JSON object per line' },
  help: { type: 'boolean', short: 'h', description: 'show help' },
  version: { type: 'boolean', description: 'print the version of zkts and exit' },
};

/** `digest:user:pass` → scheme `digest`, credentials `user:pass` (everything after the first colon). */
export function parseAuth(spec: string): { scheme: string; auth: string } {
  const colon = spec.indexOf(':');
  if (colon <= 0) throw new UsageError(`--auth must be SCHEME:CREDENTIALS, got '${spec}'`);
  return { scheme: spec.slice(0, colon), auth: spec.slice(colon + 1) };
}

export function globalOptions(args: ParsedArgs, env: NodeJS.ProcessEnv): GlobalOptions {
  // An empty ZKTS_SERVER counts as unset, like most tools treat empty variables.
  const fromEnv = env['ZKTS_SERVER'] === '' ? undefined : env['ZKTS_SERVER'];
  const server = stringOption(args, 'server') ?? fromEnv ?? DEFAULT_SERVER;
  if (server.trim() === '') throw new UsageError('--server must not be empty');
  const sasl = stringOption(args, 'sasl');
  return {
    server,
    timeout: intOption(args, 'timeout'),
    sessionTimeout: intOption(args, 'session-timeout', 1),
    json: flag(args, 'json'),
    auth: listOption(args, 'auth').map(parseAuth),
    sasl: sasl === undefined ? undefined : parseSasl(sasl),
    tls: tlsSettings(args),
    allowReadOnly: flag(args, 'allow-read-only'),
  };
}

/** Global options that take a value, so the command name can be found after them. */
export function takesValue(token: string): boolean {
  if (!token.startsWith('--') || token.includes('=')) return false;
  return GLOBAL_OPTIONS[token.slice(2)]?.type === 'string';
}
