/**
 * Tab completion for `zkts shell`: the first word completes to command names, a word starting with `/`
 * to the children of the node it names so far (one getChildren per Tab).
 */
import { joinPath } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';

export async function complete(line: string, names: readonly string[], client: () => Promise<ZkClient>): Promise<[string[], string]> {
  const current = /(\S*)$/.exec(line)?.[1] ?? '';
  const first = line.trimStart() === current;
  if (first) return [names.filter((n) => n.startsWith(current)).sort(), current];
  if (!current.startsWith('/')) return [[], current];
  const slash = current.lastIndexOf('/');
  const parent = slash === 0 ? '/' : current.slice(0, slash);
  const prefix = current.slice(slash + 1);
  try {
    const { children } = await (await client()).getChildren(parent, { timeout: 5000 });
    const matches = children.filter((c) => c.startsWith(prefix)).sort().map((c) => joinPath(parent, c));
    return [matches, current];
  } catch {
    // No such parent (yet), no permission, no connection: nothing to offer, and no error mid-typing.
    return [[], current];
  }
}
