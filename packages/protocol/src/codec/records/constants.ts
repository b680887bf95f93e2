/**
 * ZooKeeper's numeric tables (org.apache.zookeeper.ZooDefs, CreateMode, Watcher, WatcherType, AddWatchMode,
 * ClientCnxn's special xids), as const objects with derived unions. Every `…Name(n)` lookup is total: a number
 * outside the table gives a readable fallback such as `op(42)`, never a throw, because these names end up in
 * logs and decoders that must survive whatever a peer sends.
 */

/** Request types (ZooDefs.OpCode). The keys are the Java names so they can be searched for. */
export const OpCode = {
  notification: 0,
  create: 1,
  delete: 2,
  exists: 3,
  getData: 4,
  setData: 5,
  getACL: 6,
  setACL: 7,
  getChildren: 8,
  sync: 9,
  ping: 11,
  getChildren2: 12,
  check: 13,
  multi: 14,
  create2: 15,
  reconfig: 16,
  checkWatches: 17,
  removeWatches: 18,
  createContainer: 19,
  /** Server-internal (container reaper); clients never send it. */
  deleteContainer: 20,
  createTTL: 21,
  multiRead: 22,
  auth: 100,
  setWatches: 101,
  sasl: 102,
  getEphemerals: 103,
  getAllChildrenNumber: 104,
  setWatches2: 105,
  addWatch: 106,
  whoAmI: 107,
  createSession: -10,
  closeSession: -11,
  /** Only as the type of a failed multi/multiRead result. */
  error: -1,
} as const;
/** The name of an opcode (`getData`…). */
export type OpCodeName = keyof typeof OpCode;
/** An opcode number. */
export type OpCodeNumber = (typeof OpCode)[OpCodeName];

/** Numeric create modes sent in CreateRequest.flags (CreateMode.toFlag()). */
export const CreateFlags = {
  PERSISTENT: 0,
  EPHEMERAL: 1,
  PERSISTENT_SEQUENTIAL: 2,
  EPHEMERAL_SEQUENTIAL: 3,
  CONTAINER: 4,
  PERSISTENT_WITH_TTL: 5,
  PERSISTENT_SEQUENTIAL_WITH_TTL: 6,
} as const;
/** The name of a create flag. */
export type CreateFlagsName = keyof typeof CreateFlags;
/** A create flag value. */
export type CreateFlagsNumber = (typeof CreateFlags)[CreateFlagsName];

/** The client API's create-mode strings, index = numeric flag. */
export const CREATE_MODE_NAMES = [
  'persistent',
  'ephemeral',
  'persistent-sequential',
  'ephemeral-sequential',
  'container',
  'persistent-ttl',
  'persistent-sequential-ttl',
] as const;
/** A create mode name, as CreateMode in the Java client. */
export type CreateModeName = (typeof CREATE_MODE_NAMES)[number];

/** ACL permission bits (ZooDefs.Perms). */
export const Perms = { READ: 1, WRITE: 2, CREATE: 4, DELETE: 8, ADMIN: 16, ALL: 31 } as const;
/** The name of a permission bit. */
export type PermName = keyof typeof Perms;

/** Watcher.Event.EventType. */
export const EventType = {
  None: -1,
  NodeCreated: 1,
  NodeDeleted: 2,
  NodeDataChanged: 3,
  NodeChildrenChanged: 4,
  DataWatchRemoved: 5,
  ChildWatchRemoved: 6,
  PersistentWatchRemoved: 7,
} as const;
/** An event type name as the Java client spells it. */
export type EventTypeJavaName = keyof typeof EventType;
/** An event type number. */
export type EventTypeNumber = (typeof EventType)[EventTypeJavaName];

/** Watcher.Event.KeeperState (the deprecated Unknown -1 / NoSyncConnected 1 are left out). */
export const KeeperState = {
  Disconnected: 0,
  SyncConnected: 3,
  AuthFailed: 4,
  ConnectedReadOnly: 5,
  SaslAuthenticated: 6,
  Closed: 7,
  Expired: -112,
} as const;
/** A keeper state name as the Java client spells it. */
export type KeeperStateName = keyof typeof KeeperState;
/** A keeper state number. */
export type KeeperStateNumber = (typeof KeeperState)[KeeperStateName];

/** Watcher.WatcherType, sent by checkWatches/removeWatches. */
export const WatcherType = { Children: 1, Data: 2, Any: 3, Persistent: 4, PersistentRecursive: 5 } as const;
/** The name of a watcher type (removeWatches, checkWatches). */
export type WatcherTypeName = keyof typeof WatcherType;
/** A watcher type number. */
export type WatcherTypeNumber = (typeof WatcherType)[WatcherTypeName];

/** AddWatchMode, sent by addWatch. */
export const AddWatchMode = { PERSISTENT: 0, PERSISTENT_RECURSIVE: 1 } as const;
/** The name of an addWatch mode. */
export type AddWatchModeName = keyof typeof AddWatchMode;
/** An addWatch mode number. */
export type AddWatchModeNumber = (typeof AddWatchMode)[AddWatchModeName];

/**
 * Special xids (ClientCnxn). Normal requests use 1..2^31-1 and wrap to 1. Java rewrites the -8 of SetWatches to
 * a normal xid on the wire, so replies to setWatches usually come back in the FIFO like any other request.
 */
export const Xid = { NOTIFICATION: -1, PING: -2, AUTH: -4, SET_WATCHES: -8 } as const;
/** The name of a reserved xid. */
export type XidName = keyof typeof Xid;

/** The protocol version sent in ConnectRequest. */
export const PROTOCOL_VERSION = 0;
/** A fresh session sends this many zero bytes as its password. */
export const SESSION_PASSWORD_LENGTH = 16;

function invert<K extends string, V extends number>(table: Readonly<Record<K, V>>): Map<number, K> {
  const out = new Map<number, K>();
  for (const key of Object.keys(table) as K[]) out.set(table[key], key);
  return out;
}

const OP_NAMES = invert(OpCode);
const CREATE_FLAG_NAMES = invert(CreateFlags);
const EVENT_NAMES = invert(EventType);
const STATE_NAMES = invert(KeeperState);
const WATCHER_TYPE_NAMES = invert(WatcherType);
const ADD_WATCH_MODE_NAMES = invert(AddWatchMode);
const XID_NAMES = invert(Xid);

/** `getData` for 4; `op(42)` for numbers outside the table. */
export function opName(code: number): string {
  return OP_NAMES.get(code) ?? `op(${code})`;
}

/** The OpCode number for a name, or undefined. */
export function opCodeOf(name: string): OpCodeNumber | undefined {
  return Object.hasOwn(OpCode, name) ? OpCode[name as OpCodeName] : undefined;
}

/** Whether `code` is an opcode this codec knows. */
export function isKnownOpCode(code: number): code is OpCodeNumber {
  return OP_NAMES.has(code);
}

/** `EPHEMERAL_SEQUENTIAL` for 3; `flags(9)` outside the table. */
export function createFlagsName(flags: number): string {
  return CREATE_FLAG_NAMES.get(flags) ?? `flags(${flags})`;
}

/** `ephemeral-sequential` for 3; undefined outside the table. */
export function createModeName(flags: number): CreateModeName | undefined {
  return Number.isInteger(flags) && flags >= 0 ? CREATE_MODE_NAMES[flags] : undefined;
}

/** The numeric flag for a create-mode string. */
export function createModeFlags(mode: CreateModeName): CreateFlagsNumber {
  return CREATE_MODE_NAMES.indexOf(mode) as CreateFlagsNumber;
}

/** Whether create flags ask for a sequential node. */
export function isSequentialFlags(flags: number): boolean {
  return flags === 2 || flags === 3 || flags === 6;
}

/** Whether create flags ask for an ephemeral node. */
export function isEphemeralFlags(flags: number): boolean {
  return flags === 1 || flags === 3;
}

/** Whether create flags ask for a TTL node. */
export function isTtlFlags(flags: number): boolean {
  return flags === 5 || flags === 6;
}

/** `NodeDataChanged` for 3; `event(9)` outside the table. */
export function eventTypeName(type: number): string {
  return EVENT_NAMES.get(type) ?? `event(${type})`;
}

/** `SyncConnected` for 3; `state(9)` outside the table. */
export function keeperStateName(state: number): string {
  return STATE_NAMES.get(state) ?? `state(${state})`;
}

/** `Any` for 3; `watcherType(9)` outside the table. */
export function watcherTypeName(type: number): string {
  return WATCHER_TYPE_NAMES.get(type) ?? `watcherType(${type})`;
}

/** `PERSISTENT_RECURSIVE` for 1; `mode(9)` outside the table. */
export function addWatchModeName(mode: number): string {
  return ADD_WATCH_MODE_NAMES.get(mode) ?? `mode(${mode})`;
}

/** `PING` for -2; undefined for ordinary xids. */
export function specialXidName(xid: number): XidName | undefined {
  return XID_NAMES.get(xid);
}

/** `READ|WRITE` for 3, `ALL` for 31, `none` for 0; unknown bits are shown in hex. */
export function permsName(perms: number): string {
  if (perms === Perms.ALL) return 'ALL';
  if (perms === 0) return 'none';
  const parts: string[] = [];
  let rest = perms;
  for (const name of ['READ', 'WRITE', 'CREATE', 'DELETE', 'ADMIN'] as const) {
    if ((perms & Perms[name]) !== 0) {
      parts.push(name);
      rest &= ~Perms[name];
    }
  }
  if (rest !== 0) parts.push(`0x${(rest >>> 0).toString(16)}`);
  return parts.join('|');
}
