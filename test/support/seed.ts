/**
 * The seed of a randomized test, for every package's tests: `ZKTS_SEED=<n>` replays a run, otherwise a fresh
 * seed is drawn. `testSeed` prints the seed with the line that replays it the moment it is chosen, so a test that
 * fails, hangs or is killed by its timeout has already said how to run it again.
 */

/** The seed given in ZKTS_SEED (an integer, taken modulo 2^32), or undefined when it is not set. */
export function replaySeed(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const given = env['ZKTS_SEED'];
  if (given === undefined || given.trim() === '') return undefined;
  const n = Number(given);
  // A typo must not quietly become seed 0 (Number('x') >>> 0) and replay something else.
  if (!Number.isSafeInteger(n)) throw new Error(`ZKTS_SEED must be an integer, got ${JSON.stringify(given)}`);
  return n >>> 0;
}

/** A fresh seed (not Date.now(): two runs in one millisecond, or a clock with coarse ticks, would repeat it). */
export function freshSeed(): number {
  return (Math.random() * 2 ** 32) >>> 0;
}

/** ZKTS_SEED when set, else a fresh seed; printed at once as `<what>: seed <n> (replay: ZKTS_SEED=<n>)`. */
export function testSeed(what: string, env: NodeJS.ProcessEnv = process.env): number {
  const seed = replaySeed(env) ?? freshSeed();
  console.info(`${what}: seed ${seed} (replay: ZKTS_SEED=${seed})`);
  return seed;
}
