/**
 * How the CLI shows 64-bit ids (session ids, zxids, ephemeral owners) to people: `0x` and lowercase hex of the
 * unsigned value, as ZooKeeper's own logs, zkCli and four-letter words write them (Long.toHexString), so an id
 * read in `zkts` output can be searched for in a server log as it is. Every text printer goes through here;
 * JSON keeps its own documented form.
 */

/**
 * `0x…` of the unsigned 64-bit value, so a negative long (the session ids of server ids 128 and up) reads as Java
 * prints it. -1, ZooKeeper's "none" (a notification's zxid before 3.9, reconfig's "any config"), stays `-1`.
 */
export function hexId(value: bigint): string {
  if (value === -1n) return '-1';
  return `0x${BigInt.asUintN(64, value).toString(16)}`;
}

/** The same for an id the decoders carry as a decimal string; anything that is not an integer is left as it is. */
export function hexIdText(decimal: string): string {
  if (!/^-?\d+$/.test(decimal)) return decimal;
  return hexId(BigInt(decimal));
}

/**
 * Fields of ZooKeeper's records that hold a session id or a zxid (ConnectRequest/Response, Stat, SetWatches,
 * ReplyHeader, reconfig's config version): shown in hex wherever a decoded record is printed.
 */
export const ID_FIELDS: ReadonlySet<string> = new Set([
  'sessionId',
  'lastZxidSeen',
  'zxid',
  'czxid',
  'mzxid',
  'pzxid',
  'ephemeralOwner',
  'relativeZxid',
  'curConfigId',
]);
