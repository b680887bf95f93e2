/**
 * inspectRecipe: reads a node and its children and tells which recipe's layout they follow, most specific
 * layout first, so a node is named by the strongest evidence it carries:
 *
 *   1. fixed child names: semaphore (`leases`/`locks`), kazoo LockingQueue (`entries`/`taken`), SetPartitioner
 *      (`party`/`locks`), lease (`lease_holder`, or numbered slots), zkts ExclusiveLock (`lock`), kazoo
 *      Semaphore (text max leases + `<uuidhex>` children or its `<path>-__lock__`), double barrier (`ready`);
 *   2. sequential names: lock markers, `latch-`, Curator `queue-`, `qn-`, kazoo `entry-`; the family with the
 *      most recognised children wins (foreign children are ignored, never an error);
 *   3. kazoo Party / ShallowParty names;
 *   4. service discovery (JSON instances), probed on one child before reading the rest;
 *   5. a filling double barrier (UUID-named ephemerals), Curator GroupMember (any ephemerals);
 *   6. a leaf: counter, then a barrier named so.
 *
 * Anything else is a plain node: undefined. It only reads, and at most READ_BUDGET nodes (reader.ts).
 */
import { checkClientAndPath, checkOptions, rules, sortContenders, type OptionRules, type RecipeClient } from '../internal/index.js';
import { LATCH_MARKERS } from '../election/index.js';
import { LOCK_MARKERS } from '../locks/index.js';
import { parseEntry, parseItemName } from '../queues/index.js';
import { discoveryBase, discoveryService, groupMember, partitioner, party, shallowParty } from './groups.js';
import { curatorSemaphore, exclusiveLock, kazooSemaphore, latchElection, lockQueue } from './locks.js';
import { curatorQueue, kazooLockingQueue, kazooQueue, simpleQueue } from './queues.js';
import { Reader, type Listing } from './reader.js';
import type { InspectOptions, RecipeInspection } from './types.js';
import { barrier, counter, doubleBarrier, lease } from './values.js';

type Recogniser = (r: Reader, l: Listing) => Promise<RecipeInspection | undefined> | RecipeInspection | undefined;

const BY_NAMES: readonly Recogniser[] = [curatorSemaphore, kazooLockingQueue, partitioner, lease, exclusiveLock, kazooSemaphore];

/** The sequential-name families, each with how many children it recognises. */
function sequentialFamilies(children: readonly string[]): { count: number; recognise: Recogniser }[] {
  const qn = sortContenders(children, { 'qn-': 'write' }).length;
  return [
    { count: sortContenders(children, LOCK_MARKERS).length, recognise: lockQueue },
    { count: sortContenders(children, LATCH_MARKERS).length, recognise: latchElection },
    { count: children.filter((c) => parseItemName(c) !== undefined).length, recognise: curatorQueue },
    { count: qn, recognise: simpleQueue },
    { count: children.filter((c) => parseEntry(c) !== undefined).length, recognise: kazooQueue },
  ].filter((f) => f.count > 0).sort((a, b) => b.count - a.count);
}

const OPTION_RULES: OptionRules<InspectOptions> = { signal: rules.signal, now: rules.function };

const LATER: readonly Recogniser[] = [party, shallowParty, discoveryService, discoveryBase, doubleBarrier, groupMember];

/**
 * The recipe whose layout the node at `path` follows, with its members in queue order; undefined for a node of
 * no known layout, or one that does not exist (any more).
 */
export async function inspectRecipe(
  client: RecipeClient, path: string, options: InspectOptions = {},
): Promise<RecipeInspection | undefined> {
  checkClientAndPath('inspectRecipe', client, path);
  checkOptions('inspectRecipe', options, OPTION_RULES);
  const reader = new Reader(client, options.signal, (options.now ?? Date.now)());
  const listing = await reader.listing(path);
  if (listing === undefined) return undefined;
  if (listing.children.includes('ready')) {
    const found = await doubleBarrier(reader, listing);
    if (found !== undefined) return found;
  }
  const order: Recogniser[] = [...BY_NAMES, ...sequentialFamilies(listing.children).map((f) => f.recognise), ...LATER, (_, l) => counter(l), (_, l) => barrier(l)];
  for (const recognise of order) {
    options.signal?.throwIfAborted();
    const found = await recognise(reader, listing);
    if (found !== undefined) return found;
  }
  return undefined;
}
