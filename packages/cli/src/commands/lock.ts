/**
 * `zkts lock PATH [--timeout MS] [--shared] -- CMD [ARGS...]`: flock(1) for a fleet. Waits for the fair
 * Mutex at PATH (with --shared, the read side of the ReadWriteLock at PATH), runs CMD with the lock's
 * fencing token in ZKTS_FENCING_TOKEN, releases when CMD exits, and exits with CMD's status. Both kinds follow
 * the recipes' one rule for a lock path (a writer excludes everyone, readers share), so exclusive and shared
 * holders on one PATH exclude each other; the help says which other libraries' locks see which.
 */
import { constants } from 'node:os';

import { Mutex, ReadWriteLock } from '@zkts/recipes';
import type { LockHandle, LostOn } from '@zkts/recipes';

import { flag, stringOption } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { atMost, positional } from '../command.js';
import { CliError, ExitCode, UsageError } from '../exit-codes.js';
import { ProcessGroup } from '../process-group.js';
import type { CommandExit } from '../process-group.js';
import { keepRunningOnRepeatedSignals } from '../signals.js';

/** After the lock is lost, CMD gets this long to stop after SIGTERM before SIGKILL. */
const KILL_AFTER_MS = 10_000;

export const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** sh's convention for a process that died of a signal: 128 + its number. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

function lostOn(context: CommandContext): LostOn {
  const value = stringOption(context.args, 'lost-on') ?? 'expired';
  if (value !== 'expired' && value !== 'suspended') throw new UsageError(`--lost-on must be 'expired' or 'suspended', got '${value}'`);
  return value;
}

async function acquire(context: CommandContext, path: string, shared: boolean, when: LostOn): Promise<LockHandle> {
  const client = await context.session.client();
  const options = { lostOn: when };
  const lock = shared ? new ReadWriteLock(client, path, options).readLock : new Mutex(client, path, options);
  const timeout = context.global.timeout;
  try {
    return await lock.acquire({ signal: context.signal, ...(timeout === undefined ? {} : { timeout }) });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'TIMEOUT') throw new CliError(ExitCode.TIMEOUT, `timed out after ${timeout} ms waiting for the lock ${path}`, { cause: error });
    if (context.signal.aborted) {
      const signal = String(context.signal.reason) as NodeJS.Signals;
      throw new CliError(signalExitCode(signal), `interrupted (${signal}) while waiting for the lock ${path}`, { cause: error });
    }
    throw error;
  }
}

export const lock: Command = {
  name: 'lock',
  summary: 'run a command while holding a ZooKeeper lock (flock(1) for a fleet)',
  usage: 'PATH [--timeout MS] [--shared] [--lost-on expired|suspended] [--foreground] -- CMD [ARGS...]',
  details:
    'Waits for the fair lock at PATH (exclusive; --shared: held together with other --shared holders), runs\n' +
    'CMD with stdio inherited and ZKTS_FENCING_TOKEN (the decimal czxid of the lock node, growing with every\n' +
    'grant) and ZKTS_LOCK_NODE in its environment, then releases the lock.\n' +
    '\n' +
    'CMD runs in a process group (and session) of its own: signals and a lost lock reach every process it\n' +
    'started, and the lock is held until all of them have exited, not just CMD (as flock(1) holds its lock\n' +
    'while any child keeps the file open). A process that leaves the group (a daemon) is on its own.\n' +
    '--foreground keeps CMD in zkts\'s group instead, for a CMD that needs the terminal (/dev/tty: password\n' +
    'prompts); then only CMD itself is signalled and waited for.\n' +
    '\n' +
    'One PATH, every kind of lock. Each node under PATH is a writer or a reader, whoever created it: a writer\n' +
    'waits for every node queued before it, a reader only for the writers before it.\n' +
    '\n' +
    '  zkts lock PATH            writer  _c_<uuid>-lock-<seq>     as zkts Mutex, Curator InterProcessMutex\n' +
    '  zkts lock --shared PATH   reader  _c_<uuid>-__READ__<seq>  as the read side of zkts ReadWriteLock and\n' +
    '                                                              Curator InterProcessReadWriteLock\n' +
    '  also writers: __WRIT__ (read-write locks, write side), kazoo __lock__; also readers: kazoo __rlock__\n' +
    '\n' +
    '                      while held by:  zkts lock   zkts lock --shared\n' +
    '  zkts lock                           waits       waits\n' +
    '  zkts lock --shared                  waits       runs alongside\n' +
    '\n' +
    "Other libraries on PATH see only the names they know. Curator's InterProcessMutex sees zkts lock\n" +
    "holders but NOT --shared ones; Curator's InterProcessReadWriteLock sees --shared holders (its writer waits\n" +
    "for them) but NOT zkts lock; kazoo's Lock/WriteLock sees both when given extra_lock_patterns=['-lock-',\n" +
    "'__WRIT__', '__READ__']. zkts sees all of them. Next to Curator, use only the kind its class sees; next to\n" +
    'kazoo, either (README.md: "Locks on one path").\n' +
    '\n' +
    "Exit status: CMD's own (128+N if it died of signal N); 75 when --timeout passes before the lock is\n" +
    'granted (the waiting node is removed); 76 when the lock was lost while CMD ran (session expired or the\n' +
    `node deleted): CMD's group then gets SIGTERM, and SIGKILL ${KILL_AFTER_MS / 1000} s later; 127 when CMD cannot be started.\n` +
    'SIGINT, SIGTERM and SIGHUP are forwarded to CMD\'s group; the lock is released once it has exited. If zkts\n' +
    'itself is killed (SIGKILL), the lock passes on when its session expires (--session-timeout).\n' +
    '\n' +
    'Without contact to ZooKeeper the server expires the session after the session timeout, but zkts can only\n' +
    'conclude so itself a little later (4/3 of it). --lost-on suspended closes that gap: CMD is stopped as soon\n' +
    'as the connection drops, at the price of stopping it on every brief network blip.',
  options: {
    shared: { type: 'boolean', description: 'hold the lock together with other --shared holders (a reader: waits only for exclusive holders)' },
    foreground: { type: 'boolean', description: "run CMD in zkts's process group, so it can use the terminal; only CMD itself is signalled and waited for" },
    'lost-on': {
      type: 'string',
      arg: 'WHEN',
      description: "when the lock counts as lost: 'expired' (default: the session is gone) or 'suspended' (already when the connection drops)",
    },
  },
  splitRest: true,
  async run(context: CommandContext): Promise<number> {
    atMost(context, 1);
    const path = positional(context, 0, 'PATH');
    const argv = context.args.rest ?? [];
    const [program, ...programArgs] = argv;
    if (program === undefined) throw new UsageError('missing CMD after --');
    if (context.interactive) throw new UsageError('lock is not available inside the shell');
    const when = lostOn(context);
    keepRunningOnRepeatedSignals();

    const lease = await acquire(context, path, flag(context.args, 'shared'), when);
    let lost = false;
    let exit: CommandExit = { code: null, signal: null };
    const forwarders: [NodeJS.Signals, () => void][] = [];
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    const onLost = (group: ProcessGroup): void => {
      lost = true;
      context.out.error(`lock: ${lease.node}: ${String((lease.lost.reason as Error | undefined)?.message ?? 'lost')}; stopping the command (SIGTERM)`);
      group.signal('SIGTERM');
      killTimer = setTimeout(() => group.signal('SIGKILL'), KILL_AFTER_MS);
    };
    let stopOnLost: (() => void) | undefined;
    try {
      const group = new ProcessGroup(program, programArgs, {
        env: { ...context.io.env, ZKTS_FENCING_TOKEN: lease.fencingToken.toString(), ZKTS_LOCK_NODE: lease.node },
        ownGroup: !flag(context.args, 'foreground'),
      });
      // Every signal zkts gets goes on to CMD's group; zkts itself waits for it and then releases.
      for (const signal of FORWARDED_SIGNALS) {
        const forward = (): void => group.signal(signal);
        forwarders.push([signal, forward]);
        process.on(signal, forward);
      }
      stopOnLost = () => onLost(group);
      if (lease.lost.aborted) stopOnLost();
      else lease.lost.addEventListener('abort', stopOnLost, { once: true });
      exit = await group.exited;
      // What CMD started in its group still works under the lock: hold it until they are done too.
      await group.drained(() => context.out.error(`lock: ${program} exited; holding ${path} until the processes it started have exited`));
    } finally {
      if (stopOnLost !== undefined) lease.lost.removeEventListener('abort', stopOnLost);
      if (killTimer !== undefined) clearTimeout(killTimer);
      for (const [signal, forward] of forwarders) process.off(signal, forward);
      // The release removes our node; if that fails, closing the session (dispatch does) removes it too.
      await lease.release().catch((error: unknown) => context.out.error(`lock: releasing ${lease.node}: ${String(error)}`));
    }
    const spawnError = exit.error;
    if (spawnError !== undefined) {
      const errno = (spawnError as NodeJS.ErrnoException).code;
      throw new CliError(errno === 'EACCES' ? 126 : 127, `cannot run ${program}: ${errno ?? spawnError.message}`);
    }
    if (lost) throw new CliError(ExitCode.LOCK_LOST, `the lock ${path} was lost while ${program} ran`);
    if (exit.signal !== null) return signalExitCode(exit.signal);
    return exit.code ?? ExitCode.ERROR;
  },
};
