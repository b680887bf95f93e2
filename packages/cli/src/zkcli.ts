/**
 * ZooKeeper's zkCli.sh habits on the way in: its single-dash options before the command, and what to say
 * about its commands that zkts has no name for. Its command names that zkts has are commands of their own
 * (commands/zkcli-names.ts); this module only translates and explains.
 */
import { UsageError } from './exit-codes.js';
import { takesValue } from './global-options.js';

/**
 * zkCli's options (ZooKeeperMain): each is only recognised before the command name, as zkCli does, so a
 * command's own `-r` or `-s` never collides with them. `-timeout` is zkCli's session timeout.
 */
const ZKCLI_GLOBALS: Readonly<Record<string, { readonly to: readonly string[]; readonly value: boolean }>> = {
  '-server': { to: ['--server'], value: true },
  '-timeout': { to: ['--session-timeout'], value: true },
  '-r': { to: ['--allow-read-only'], value: false },
  // zkts always waits for the connection (up to --timeout) before a command runs.
  '-waitforconnection': { to: [], value: false },
};

export interface TranslatedArgv {
  readonly argv: readonly string[];
  /** `-server` was given in zkCli's form: with no command, zkCli opens its shell, and so does zkts. */
  readonly zkCliServer: boolean;
}

/** Rewrites zkCli's leading options into ours; everything from the command name on is left as it is. */
export function translateZkCliGlobals(argv: readonly string[]): TranslatedArgv {
  const out: string[] = [];
  let zkCliServer = false;
  let i = 0;
  for (; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === '--' || !token.startsWith('-')) break;
    if (token === '-client-configuration') {
      throw new UsageError('-client-configuration: zkts reads no Java client properties; use --tls-ca/--tls-cert/--tls-key, --sasl or --auth');
    }
    const zkCli = ZKCLI_GLOBALS[token];
    if (zkCli !== undefined) {
      out.push(...zkCli.to);
      if (token === '-server') zkCliServer = true;
      if (zkCli.value) {
        const value = argv[++i];
        if (value === undefined) throw new UsageError(`option ${token} needs a value`);
        out.push(value);
      }
      continue;
    }
    out.push(token);
    if (takesValue(token) && i + 1 < argv.length) out.push(argv[++i] as string);
  }
  return { argv: [...out, ...argv.slice(i)], zkCliServer };
}

/**
 * zkCli's commands without a zkts name of their own (its shell's built-ins, mostly), and other words people
 * type for ours: what to use instead.
 */
export const COMMAND_HINTS: Readonly<Record<string, string>> = {
  connect: 'zkts connects once, to --server: start `zkts --server HOST:PORT shell` for another server',
  close: 'the session ends with the command; in `zkts shell`, `exit` ends it',
  history: "`zkts shell` keeps its history in ~/.zkts_history: the up arrow and Ctrl-R reach it",
  redo: "`zkts shell` keeps its history in ~/.zkts_history: the up arrow and Ctrl-R reach it",
  printwatches: 'the event of a -w watch is always printed (ls -w, get -w, stat -w)',
  addWatch: 'use `watch PATH` (addWatch -m PERSISTENT) or `watch PATH --recursive` (PERSISTENT_RECURSIVE); it prints the events until interrupted',
  ls2: 'use `ls -s PATH` (the children, then the stat)',
  reconfig: 'the zkts command line does not change the ensemble; the library does: zk.admin.reconfig()',
  cat: 'use `get PATH`',
  mkdir: 'use `create -p PATH`',
  remove: 'use `rm PATH` (`rm -r PATH` for a subtree)',
  exists: 'use `stat PATH` (exit 2 when the node does not exist)',
};
