/**
 * The Stat the client hands out. It differs from the codec's record (`@zkts/protocol/codec`, byte-exact, every
 * long a bigint) in two ways a program notices: ctime and mtime are numbers of milliseconds, which `new Date()`
 * takes, and `JSON.stringify(stat)` works. Ids (zxids, the ephemeral owner's session id) stay bigints: they use
 * all 64 bits, and a number would silently round them.
 */
import type { JuteReader } from '../codec/jute/reader.js';
import { longMemo, type LongMemo } from '../codec/jute/reader.js';
import type { Stat as WireStat } from '../codec/records/data.js';

/**
 * The metadata ZooKeeper keeps for a node (its `Stat`).
 *
 * Stats returned by the client also have a `toJSON()`, so `JSON.stringify(stat)` works: bigints are written as
 * decimal strings, numbers as numbers (see {@link StatJSON}).
 */
export interface Stat {
  /** The zxid of the transaction that created the node; grows with every create (a fencing token). */
  czxid: bigint;
  /** The zxid of the last change to the node's data. */
  mzxid: bigint;
  /** Creation time, milliseconds since the epoch: `new Date(stat.ctime)`. */
  ctime: number;
  /** Time of the last data change, milliseconds since the epoch. */
  mtime: number;
  /** Data version: the `version` a conditional `setData` or `delete` compares with. */
  version: number;
  /** Version of the children list (changes on child create and delete). */
  cversion: number;
  /** ACL version: the `version` a conditional `setACL` compares with. */
  aversion: number;
  /** The owning session of an ephemeral node, `0n` for other nodes. (A TTL node's value is not a session id.) */
  ephemeralOwner: bigint;
  /** Bytes of data. */
  dataLength: number;
  /** Number of children. */
  numChildren: number;
  /** The zxid of the last change to the children list. */
  pzxid: bigint;
}

/** What `JSON.stringify(stat)` writes: each bigint as a decimal string (exact, unlike a JSON number). */
export type StatJSON = { [K in keyof Stat]: Stat[K] extends bigint ? string : Stat[K] };

/**
 * A class rather than an object literal so that toJSON lives once on the prototype: the getData reply, the
 * hot path, allocates the same one object either way.
 */
class NodeStat implements Stat {
  constructor(
    public czxid: bigint,
    public mzxid: bigint,
    public ctime: number,
    public mtime: number,
    public version: number,
    public cversion: number,
    public aversion: number,
    public ephemeralOwner: bigint,
    public dataLength: number,
    public numChildren: number,
    public pzxid: bigint,
  ) {}

  toJSON(): StatJSON {
    return {
      czxid: this.czxid.toString(),
      mzxid: this.mzxid.toString(),
      ctime: this.ctime,
      mtime: this.mtime,
      version: this.version,
      cversion: this.cversion,
      aversion: this.aversion,
      ephemeralOwner: this.ephemeralOwner.toString(),
      dataLength: this.dataLength,
      numChildren: this.numChildren,
      pzxid: this.pzxid.toString(),
    };
  }
}

// One memo per id field, as the codec's readStat has: reading the same node again yields the same zxids, so no
// bigint is made for them. The times are read as numbers and need none.
const czxidMemo = longMemo();
const mzxidMemo = longMemo();
const ownerMemo = longMemo();
const pzxidMemo = longMemo();

/**
 * readLongMemo, but a long equal to `same`'s last one (a new node's mzxid and pzxid are its czxid) takes that
 * bigint too: a created node's Stat then makes one bigint for its three zxids, not three. Only the create
 * replies read this way: a re-read node's memos hit already, and getData need not pay the comparison.
 */
function readZxid(r: JuteReader, memo: LongMemo, same: LongMemo): bigint {
  if (!r.nextLongIs(memo.high, memo.low) && r.nextLongIs(same.high, same.low)) {
    memo.high = same.high;
    memo.low = same.low;
    memo.value = same.value;
  }
  return r.readLongMemo(memo);
}

/** Reads a Stat record (68 bytes) as the client's Stat. Arguments are evaluated in order: wire order. */
export function readClientStat(r: JuteReader): Stat {
  return new NodeStat(
    r.readLongMemo(czxidMemo),
    r.readLongMemo(mzxidMemo),
    r.readLongNumber(),
    r.readLongNumber(),
    r.readInt(),
    r.readInt(),
    r.readInt(),
    r.readLongMemo(ownerMemo),
    r.readInt(),
    r.readInt(),
    r.readLongMemo(pzxidMemo),
  );
}

/** readClientStat for a create's reply, whose three zxids are usually one (see readZxid). */
export function readCreatedStat(r: JuteReader): Stat {
  return new NodeStat(
    r.readLongMemo(czxidMemo),
    readZxid(r, mzxidMemo, czxidMemo),
    r.readLongNumber(),
    r.readLongNumber(),
    r.readInt(),
    r.readInt(),
    r.readInt(),
    r.readLongMemo(ownerMemo),
    r.readInt(),
    r.readInt(),
    readZxid(r, pzxidMemo, czxidMemo),
  );
}

/** The codec's record as the client's Stat, for replies decoded by the codec (multi, multiRead). */
export function fromWireStat(s: WireStat): Stat {
  return new NodeStat(s.czxid, s.mzxid, Number(s.ctime), Number(s.mtime), s.version, s.cversion, s.aversion, s.ephemeralOwner, s.dataLength, s.numChildren, s.pzxid);
}
