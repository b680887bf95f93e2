/**
 * Hooks that let tests reach into a recipe's wait loop at one exact point; not part of the package's API (the
 * entry does not export this module; tests import it by path). Kept in a WeakMap keyed by the recipe object, so
 * the public option types carry no test-only fields and a recipe nobody hooks pays one map lookup.
 */
export interface TestHooks {
  /**
   * Runs after the queue was read and the node to wait for chosen, before the watch is set, so a test can delete
   * that node deterministically in the window where a lost wakeup would happen.
   */
  afterGetChildren?: (info: { children: readonly string[]; watch: string }) => Promise<void> | void;
}

const hooks = new WeakMap<object, TestHooks>();

export function setTestHooks<T extends object>(recipe: T, testHooks: TestHooks): T {
  hooks.set(recipe, testHooks);
  return recipe;
}

export function testHooksOf(recipe: object): TestHooks | undefined {
  return hooks.get(recipe);
}
