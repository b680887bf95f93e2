/**
 * The recipes' side of protocol's unknown-option policy (checkOptionKeys: a near miss of a known key is refused
 * with a suggestion, any other unknown key warns once per door and key). The matching is protocol's alone; this
 * only turns its refusal into the recipes' error, so a recipe door fails with RecipeArgumentError like every
 * other bad argument it is given.
 */
import { checkOptionKeys, InvalidArgumentError } from '@zkts/protocol';

import { RecipeArgumentError } from '../errors.js';

/** Applies the policy to the keys of `options` (a plain object) for the door `where`. */
export function checkUnknownOptions(options: object, knownKeys: readonly string[], where: string): void {
  try {
    checkOptionKeys(options, knownKeys, where);
  } catch (e) {
    if (e instanceof InvalidArgumentError) {
      // Protocol's message leads with "invalid options: "; ours names the door instead, as every other check does.
      const lead = `invalid ${e.argument}: `;
      throw new RecipeArgumentError(e.message.startsWith(lead) ? e.message.slice(lead.length) : e.message, { cause: e });
    }
    throw e;
  }
}
