/**
 * A failed multi: the whole transaction was rolled back. `code`/`keeperCode` are the failing op's,
 * `failedIndex` its position, `results` every op's outcome (0 before the failure, the failure's own code,
 * RUNTIME_INCONSISTENCY after it).
 */
import { ServerError } from '../errors/errors.js';
import { serverCodeName } from '../errors/codes.js';
import type { MultiOpOutcome } from './types.js';

export class MultiError extends ServerError {
  readonly failedIndex: number;
  readonly results: MultiOpOutcome[];

  constructor(failedIndex: number, keeperCode: number, codes: readonly number[], path?: string) {
    super(keeperCode, path);
    this.failedIndex = failedIndex;
    this.results = codes.map((c) => ({ code: c === 0 ? 'OK' : serverCodeName(c), keeperCode: c }));
    this.message = `multi op #${failedIndex} failed: ${this.message}`;
  }
}
