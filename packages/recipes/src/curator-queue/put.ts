/**
 * Adding an item to a Curator queue without ever adding it twice. Curator's names cannot carry a protection
 * uuid (its consumers order plain, priority and id items by the name, so a uuid in it would reorder the queue),
 * so the uuid goes into the data instead, after Curator's end opcode where Curator does not read (format.ts).
 * After a lost reply (a connection loss, or an expiry with the create in flight: the item is persistent and
 * outlives the session) we sync, list the items with our name's middle, newest first, and read them until one
 * carries our uuid: found, that is our item; not found, our create did not happen and we send it again.
 */
import { joinPath } from '@zkts/protocol';

import { childrenOrEmpty, ensureDir, readNodes } from '../nodes.js';
import { within, type Scope } from '../wait.js';
import { isConnectionLoss, isExpiry, isNoNode, retrying, type RecipeClient } from '../zk.js';
import { decodeItem, encodeItem } from './format.js';
import { ITEM_PREFIX, parseItemName } from './names.js';
import { compareSequence } from '../names.js';

/** How many items are read at once while looking for our own after a lost reply. */
const SEARCH_BATCH = 32;

export interface PutRequest {
  readonly dir: string;
  /** What goes between `queue-` and the sequence (names.ts). */
  readonly middle: string;
  readonly messages: readonly Uint8Array[];
  /** Wait until the queue holds fewer items than this (Curator's maxItems); the scope bounds that wait. */
  readonly maxItems?: number | undefined;
}

/** Creates the item node; resolves with its path. */
export async function putItem(client: RecipeClient, request: PutRequest, scope: Scope): Promise<string> {
  const { dir, middle, maxItems } = request;
  if (maxItems !== undefined) await waitForRoom(client, dir, maxItems, scope);
  const marker = globalThis.crypto.randomUUID();
  const data = encodeItem(request.messages, marker);
  const prefix = joinPath(dir, ITEM_PREFIX + middle);
  for (;;) {
    try {
      return (await client.create(prefix, data, { mode: 'persistent-sequential' })).path;
    } catch (e) {
      if (isNoNode(e)) {
        await ensureDir(client, dir);
        continue;
      }
      if (!isConnectionLoss(e) && !isExpiry(e)) throw e;
    }
    await client.connected();
    await retrying(client, () => client.sync(dir));
    const found = await findMarked(client, dir, middle, marker);
    if (found !== undefined) return found;
  }
}

/** The item with our marker, searching the newest first (ours, if created, is among the last). */
async function findMarked(client: RecipeClient, dir: string, middle: string, marker: string): Promise<string | undefined> {
  const candidates = (await childrenOrEmpty(client, dir))
    .map(parseItemName)
    .filter((item) => item !== undefined && item.middle === middle)
    .sort((a, b) => compareSequence(b!.sequence, a!.sequence));
  for (let i = 0; i < candidates.length; i += SEARCH_BATCH) {
    const paths = candidates.slice(i, i + SEARCH_BATCH).map((item) => joinPath(dir, item!.name));
    for (const node of await readNodes(client, paths)) {
      try {
        if (decodeItem(node.data).marker === marker) return node.path;
      } catch {
        // not Curator's format: not ours either
      }
    }
  }
  return undefined;
}

/** Waits while the queue holds `maxItems` items or more (Curator blocks its put the same way). */
async function waitForRoom(client: RecipeClient, dir: string, maxItems: number, scope: Scope): Promise<void> {
  for (;;) {
    let listing: { children: string[]; watch?: Promise<unknown> };
    try {
      listing = await within(scope, retrying(client, () => client.getChildren(dir, { watch: true })));
    } catch (e) {
      if (isNoNode(e)) return; // no directory, no items
      throw e;
    }
    if (listing.children.filter((c) => parseItemName(c) !== undefined).length < maxItems) return;
    if (listing.watch !== undefined) await within(scope, listing.watch).catch((e: unknown) => {
      if (!isExpiry(e)) throw e; // a watch of an ended session: list again in the new one
    });
  }
}
