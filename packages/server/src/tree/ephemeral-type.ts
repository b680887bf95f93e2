/**
 * What a node's ephemeralOwner encodes (org.apache.zookeeper.server.EphemeralType): 0 for a plain node, the
 * owning session's id for an ephemeral, Long.MIN_VALUE for a container, and — with extended types enabled — a
 * TTL node as 0xFF in the top byte, a 16-bit extended-feature field (0 = TTL) and the TTL in the low 40 bits.
 */

/** ephemeralOwner of a container (EphemeralType.CONTAINER_EPHEMERAL_OWNER). */
export const CONTAINER_EPHEMERAL_OWNER = -0x8000000000000000n;
/** The largest TTL in ms (EXTENDED_FEATURE_VALUE_MASK, about 34 years). */
export const MAX_TTL = 0xff_ffff_ffffn;
const EXTENDED_MASK = -0x100000000000000n; // 0xff00000000000000 as a signed long
const RESERVED_BITS_MASK = 0x00ffff0000000000n;

/** A node kind as EphemeralType.get reports it. */
export type EphemeralKind = 'void' | 'normal' | 'container' | 'ttl';

/** EphemeralType.get. An extended owner with an unknown feature is 'normal' here (Java throws). */
export function ephemeralKind(owner: bigint, extendedTypesEnabled: boolean): EphemeralKind {
  if (extendedTypesEnabled && (owner & EXTENDED_MASK) === EXTENDED_MASK) {
    return (owner & RESERVED_BITS_MASK) >> 40n === 0n ? 'ttl' : 'normal';
  }
  if (owner === CONTAINER_EPHEMERAL_OWNER) return 'container';
  return owner === 0n ? 'void' : 'normal';
}

/** Whether `ttl` is accepted by EphemeralType.TTL.toEphemeralOwner. */
export function isValidTtl(ttl: bigint): boolean {
  return ttl > 0n && ttl <= MAX_TTL;
}

/** The ephemeralOwner of a TTL node (call only with a valid ttl). */
export function ttlOwner(ttl: bigint): bigint {
  return BigInt.asIntN(64, EXTENDED_MASK | ttl);
}

/** The TTL in ms a TTL node's owner carries. */
export function ttlOf(owner: bigint): bigint {
  return owner & MAX_TTL;
}
