/**
 * A command and every process it starts, as one unit to signal and to wait for: what `zkts lock` holds its lock
 * around. A shell script's children would otherwise outlive a signal sent to the script alone, and go on
 * working after the lock was released or lost.
 *
 * The command is started in a process group of its own (as coreutils' timeout does). Node can only make one
 * with a new session (setsid), so the command has no controlling terminal; `ownGroup: false` keeps it in ours
 * for commands that need /dev/tty, and then only the command itself is signalled and waited for.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface CommandExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when the command could not be started. */
  readonly error?: Error;
}

export interface ProcessGroupOptions {
  readonly env: NodeJS.ProcessEnv;
  /** Start the command in a process group of its own (default true). */
  readonly ownGroup?: boolean;
}

/** How often the group is looked at while the command's leftovers run. */
const DRAIN_POLL_MS = 100;

export class ProcessGroup {
  private readonly child: ChildProcess;
  private readonly ownGroup: boolean;
  /** Settles when the command itself has exited (or could not start). */
  readonly exited: Promise<CommandExit>;

  constructor(program: string, args: readonly string[], options: ProcessGroupOptions) {
    this.ownGroup = options.ownGroup ?? true;
    this.child = spawn(program, args, { stdio: 'inherit', env: options.env, detached: this.ownGroup });
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => resolve({ code: null, signal: null, error }));
      this.child.once('exit', (code, signal) => resolve({ code, signal }));
    });
  }

  /** Sends `signal` to every process of the group (to the command alone without a group of its own). */
  signal(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    if (!this.ownGroup) {
      this.child.kill(signal);
      return;
    }
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: every process of the group has exited.
    }
  }

  /** Whether a process of the group still runs (after the command exited: the processes it left behind). */
  running(): boolean {
    const pid = this.child.pid;
    if (pid === undefined) return false;
    if (!this.ownGroup) return this.child.exitCode === null && this.child.signalCode === null;
    try {
      process.kill(-pid, 0);
    } catch (error) {
      // EPERM: a member we may not signal (setuid) is still there.
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
    return hasLiveMember(pid);
  }

  /** Resolves once no process of the group runs; `onWait` is called once if that means waiting. */
  async drained(onWait: () => void): Promise<void> {
    if (!this.running()) return;
    onWait();
    while (this.running()) await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
  }
}

/**
 * Whether the group has a member that is not a zombie. An orphan that exited stays a zombie until the
 * system's init reaps it, and an init that never reaps (a container's plain PID 1) would keep the group alive
 * for ever. Linux lists processes in /proc; elsewhere every member counts.
 */
function hasLiveMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') return true;
  }
  return false;
}
