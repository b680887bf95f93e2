// The A/B drivers compare this checkout's build with another one, which only the caller can name: a worktree of
// the commit to compare, installed and built (`git worktree add ../base <rev>`, then `pnpm install` and
// `pnpm -r build` there).

/** The path in `variable`, or an error saying what to set. */
export function otherBuild(variable: string, what: string): string {
  const path = process.env[variable];
  if (path === undefined || path === '') {
    throw new Error(`set ${variable} to ${what} of the build to compare against (another checkout, built)`);
  }
  return path;
}

/** A pipeline's `done` adapted to a promise's success callback, made once per distinct `done` (as the harness's runner does). */
export function successOf(): (done: (error: Error | null) => void) => () => void {
  let lastDone: ((error: Error | null) => void) | undefined;
  let lastOk: (() => void) | undefined;
  return (done) => {
    if (done !== lastDone || !lastOk) {
      lastDone = done;
      lastOk = () => done(null);
    }
    return lastOk;
  };
}

/** For the session calls a driver never makes. */
export const unused = (): never => {
  throw new Error('not used here');
};
