/**
 * Adding an item to a Curator queue without ever adding it twice. Curator's names cannot carry a protection
 * uuid (its consumers order plain, priority and id items by the name, so a uuid in it would reorder the queue),
 * and looking for the item after a lost reply is not enough either: a consumer may have taken it meanwhile.
 * So the item's create runs in one multi with the create of an EPHEMERAL_SEQUENTIAL receipt
 * `_zkts-put-<uuid>-<seq>` beside it (deleted right after; Curator skips such foreign names). After a lost reply
 * the receipt says whether our multi committed, and its sequence, one past the item's (both creates bump the
 * directory's cversion in turn), names the item even if it was consumed already.
 * Only when the session ended with the reply outstanding is the receipt gone with it: then we look for the item
 * by the uuid we also put in its data, after Curator's end opcode (format.ts). That finds it unless a consumer
 * took it in that window, in which case it would be put a second time: the one case we cannot settle.
 */
import { joinPath } from '@zkts/protocol';

import {
  childrenOrEmpty, compareSequence, ensurePersistentDir, formatSequence, isConnectionLoss, isExpiry, isNoNode,
  parseSequence, readNodes, reconnected, retrying, retryingAcrossSessions, within, type RecipeClient, type Scope,
} from '../../internal/index.js';
import { decodeItem, encodeItem } from './format.js';
import { ITEM_PREFIX, parseItemName } from './names.js';

/** How many items are read at once while looking for our own after a lost reply. */
const SEARCH_BATCH = 32;
const RECEIPT_PREFIX = '_zkts-put-';

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
  const uuid = globalThis.crypto.randomUUID();
  const data = encodeItem(request.messages, uuid);
  const item = joinPath(dir, ITEM_PREFIX + middle);
  const receipt = joinPath(dir, `${RECEIPT_PREFIX}${uuid}-`);
  for (;;) {
    let expired: boolean;
    try {
      const [created, made] = await client.multi([
        { op: 'create', path: item, data, mode: 'persistent-sequential' },
        { op: 'create', path: receipt, data: null, mode: 'ephemeral-sequential' },
      ]);
      dropReceipt(client, made?.op === 'create' ? made.path : undefined);
      if (created?.op !== 'create') throw new Error('multi answered without the create result');
      return created.path;
    } catch (e) {
      if (isNoNode(e)) {
        await ensurePersistentDir(client, dir);
        continue;
      }
      if (!isConnectionLoss(e) && !isExpiry(e)) throw e;
      expired = isExpiry(e);
    }
    const settled = await settle(client, dir, middle, uuid, expired);
    if (settled !== undefined) return settled;
  }
}

/** After a lost reply: the item's path if our multi committed, undefined if it did not (then create again). */
async function settle(client: RecipeClient, dir: string, middle: string, uuid: string, expired: boolean): Promise<string | undefined> {
  for (;;) {
    try {
      await reconnected(client);
      await retrying(client, () => client.sync(dir));
      // The receipt commits with the item or not at all, so in the same session it is the whole answer. Our
      // ephemeral receipt is gone with an ended session: then only the uuid in the data can tell.
      return expired ? await findMarked(client, dir, middle, uuid) : await fromReceipt(client, dir, middle, uuid);
    } catch (e) {
      if (!isConnectionLoss(e) && !isExpiry(e)) throw e;
      if (isExpiry(e)) expired = true;
    }
  }
}

/** Our receipt's item path (one sequence before the receipt's), or undefined when our multi did not commit. */
async function fromReceipt(client: RecipeClient, dir: string, middle: string, uuid: string): Promise<string | undefined> {
  const prefix = `${RECEIPT_PREFIX}${uuid}-`;
  const name = (await childrenOrEmpty(client, dir)).find((c) => c.startsWith(prefix));
  if (name === undefined) return undefined;
  dropReceipt(client, joinPath(dir, name));
  const sequence = parseSequence(name.slice(prefix.length));
  if (sequence === undefined) throw new Error(`unreadable put receipt ${name}`);
  return joinPath(dir, ITEM_PREFIX + middle + formatSequence((sequence - 1) | 0));
}

function dropReceipt(client: RecipeClient, path: string | undefined): void {
  // In the background, again after a connection loss; its session's end removes it anyway.
  if (path !== undefined) void retrying(client, () => client.delete(path)).catch(() => undefined);
}

/** The item with our marker, searching the newest first (ours, if created, is among the last). */
async function findMarked(client: RecipeClient, dir: string, middle: string, uuid: string): Promise<string | undefined> {
  const candidates = (await childrenOrEmpty(client, dir))
    .map(parseItemName)
    .filter((item) => item !== undefined && item.middle === middle)
    .sort((a, b) => compareSequence(b!.sequence, a!.sequence));
  for (let i = 0; i < candidates.length; i += SEARCH_BATCH) {
    const paths = candidates.slice(i, i + SEARCH_BATCH).map((item) => joinPath(dir, item!.name));
    for (const node of await readNodes(client, paths)) {
      try {
        if (decodeItem(node.data).marker === uuid) return node.path;
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
      listing = await within(scope, retryingAcrossSessions(client, () => client.getChildren(dir, { watch: true })));
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
