/** Polls `check` until it holds; rejects with `timed out: <what>` after `timeout` ms. */
export async function until(check: () => boolean | Promise<boolean>, what: string, { timeout = 10_000, every = 20 } = {}): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
