/**
 * Process-wide signal policy. Normally a second SIGINT/SIGTERM exits at once (a stuck command must not trap
 * the user). `zkts lock` turns that off: it forwards every signal to its child and must still release the
 * lock when the child is gone.
 */
let forceExitOnRepeat = true;

export function keepRunningOnRepeatedSignals(): void {
  forceExitOnRepeat = false;
}

export function exitsOnRepeatedSignal(): boolean {
  return forceExitOnRepeat;
}
