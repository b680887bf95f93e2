/**
 * A request refused with a KeeperException code (KeeperCode numbers): thrown by validation, caught by the
 * dispatcher, which answers it in the reply header (or, inside a multi, as that op's error result).
 */
import { KeeperCode, serverCodeName } from '@zkts/protocol/codec';

/** A refusal carrying the KeeperException code the client receives. */
export class Rejection extends Error {
  constructor(readonly code: number) {
    super(serverCodeName(code));
    this.name = 'Rejection';
  }
}

/** Throws a Rejection with `code`. */
export function reject(code: number): never {
  throw new Rejection(code);
}

export { KeeperCode };
