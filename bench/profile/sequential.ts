// One request in flight at a time, as the interleaved p50 row: `n` getData calls of a bench session, each sent
// when the previous one answered. Shared by the sequential-get profile drivers.
import type { BenchSession } from '../harness/session.js';

export function sequential(s: BenchSession, path: string, n: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let left = n;
    const next = (e: Error | null): void => {
      if (e) return reject(e);
      if (left-- === 0) return resolve();
      s.getData(path, next);
    };
    next(null);
  });
}
