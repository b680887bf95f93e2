/**
 * Small questions people ask of a decoded transaction or snapshot node, answered once here so the CLI and
 * library users agree: which paths a transaction touched (a multi's sub-transactions and the ephemeral nodes
 * a closeSession deleted included — "who deleted my node" is often "that session ended"), and what a
 * node's ephemeralOwner field means (it doubles as a TTL for TTL nodes and is 0x8000… for containers).
 */
import type { TxnEntry, TxnRecord } from './txn-entry.js';

/** Every path a transaction creates, changes or deletes, in log order (sub-transactions included). */
export function txnPaths(txn: TxnRecord | null): string[] {
  if (txn === null) return [];
  switch (txn.kind) {
    case 'multi':
      return (txn.txns ?? []).flatMap((sub) => txnPaths(sub.txn));
    case 'closeSession':
      return (txn.paths2Delete ?? []).filter((p): p is string => p !== null);
    case 'createSession':
    case 'error':
      return [];
    default:
      return txn.path === null ? [] : [txn.path];
  }
}

/** The main path of a transaction: its record's, or a multi's first; undefined when it has none. */
export function txnPath(entry: Pick<TxnEntry, 'txn'>): string | undefined {
  const txn = entry.txn;
  if (txn === null || txn.kind === 'closeSession') return undefined;
  return txnPaths(txn)[0];
}

/** What a Stat's ephemeralOwner field means: an ephemeral owner session, a TTL, a container, or a persistent node. */
export type EphemeralOwnerKind =
  | { kind: 'persistent' }
  | { kind: 'ephemeral'; session: bigint }
  | { kind: 'container' }
  | { kind: 'ttl'; ttl: bigint };

/** EphemeralType: 0 persistent; 0x8000000000000000 container; top byte 0xff: a TTL (ms) in the low 40 bits. */
export function ephemeralOwnerKind(owner: bigint): EphemeralOwnerKind {
  if (owner === 0n) return { kind: 'persistent' };
  const unsigned = BigInt.asUintN(64, owner);
  if (unsigned === 0x8000000000000000n) return { kind: 'container' };
  if (unsigned >> 56n === 0xffn) return { kind: 'ttl', ttl: unsigned & 0xffffffffffn };
  return { kind: 'ephemeral', session: owner };
}
