/**
 * A mutex kazoo's Lock queues with: our contender nodes end in `__lock__<seq>`, the pattern kazoo's Lock
 * recognises (its regex `(?:__lock__)(-?\d{10})$`), behind our protected prefix (`_c_<uuid>-__lock__<seq>`),
 * and carry the identifier as data, as kazoo's do (kazoo's `contenders()` lists it). Under lock-rule.ts it
 * is a writer like any other, so it also waits for Curator-style contenders on the path. Internal: the kazoo
 * lease takes it around its read-then-write of the lease node, as kazoo's NonBlockingLease takes a Lock.
 */
import { QueueLock } from './queue-lock.js';

export class KazooLock extends QueueLock {
  protected readonly marker = '__lock__';
}
