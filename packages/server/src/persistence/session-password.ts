/**
 * ZooKeeperServer.generatePasswd: a session's 16-byte password is `new java.util.Random(id ^ 0xB3415C00)`'s
 * nextBytes, so a client can re-attach to its session after the server restarted from its dataDir — ours or
 * ZooKeeper's.
 */

const MULTIPLIER = 0x5deece66dn;
const MASK = (1n << 48n) - 1n;
/** ZooKeeperServer.superSecret. */
const SUPER_SECRET = 0xb3415c00n;

/** The password ZooKeeper gives session `id`. */
export function zooKeeperPassword(id: bigint): Uint8Array {
  let seed = (BigInt.asUintN(64, id ^ SUPER_SECRET) ^ MULTIPLIER) & MASK;
  const nextInt = (): number => {
    seed = (seed * MULTIPLIER + 0xbn) & MASK;
    return Number(BigInt.asIntN(32, seed >> 16n));
  };
  const out = new Uint8Array(16);
  for (let i = 0; i < out.length; ) {
    let rnd = nextInt();
    for (let n = Math.min(out.length - i, 4); n-- > 0; rnd >>= 8) out[i++] = rnd & 0xff;
  }
  return out;
}
