/**
 * Process-wide signal policy, and the abort reason for a closed stdout. Normally a second SIGINT/SIGTERM
 * exits at once (a stuck command must not trap the user). `zkts lock` turns that off: it forwards every
 * signal to its child and must still release the lock when the child is gone.
 */
let forceExitOnRepeat = true;

export function keepRunningOnRepeatedSignals(): void {
  forceExitOnRepeat = false;
}

export function exitsOnRepeatedSignal(): boolean {
  return forceExitOnRepeat;
}

/**
 * The abort reason when stdout's reader went away (EPIPE, `zkts ls -R / | head -1`). Like coreutils under
 * SIGPIPE the command stops writing at once; unlike them zkts exits 0, quietly: the reader took what it
 * wanted, and `set -o pipefail` scripts should not fail because of `| head`.
 */
export const BROKEN_PIPE = 'EPIPE';

export function isBrokenPipe(reason: unknown): boolean {
  return reason === BROKEN_PIPE;
}

/** Resolves when `signal` fires (at once if it already has): a long-running command serves until then. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
