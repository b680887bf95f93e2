# kazoo side of the mixed-library lock tests: kazoo's WriteLock on a path shared with zkts locks of every kind.
# kazoo counts only its own names (__lock__, __rlock__) as contenders unless told others through
# extra_lock_patterns, which it offers for exactly this: here Curator's and zkts's mutex, write and read names.
# Not its ReadLock: kazoo up to 2.8 has a reader deadlock of its own (python-zk/kazoo#649).
#
#   kazoo_locks.py <hosts> <path> <who> <grants> <holdMs>
#       acquire, hold holdMs, release, <grants> times; after each grant print "write <who> <t0> <t1>"
#       (time.monotonic_ns, CLOCK_MONOTONIC: the same clock as the test's), then DONE.
import sys
import time

from kazoo.client import KazooClient
from kazoo.recipe.lock import WriteLock


def main() -> None:
    hosts, path, who = sys.argv[1], sys.argv[2], sys.argv[3]
    grants, hold_ms = int(sys.argv[4]), int(sys.argv[5])
    zk = KazooClient(hosts=hosts, timeout=10)
    zk.start(timeout=30)
    try:
        lock = WriteLock(zk, path, identifier=who, extra_lock_patterns=("-lock-", "__WRIT__", "__READ__"))
        for _ in range(grants):
            if not lock.acquire(timeout=60):
                raise SystemExit(f"{who}: no grant in 60 s")
            t0 = time.monotonic_ns()
            time.sleep(hold_ms / 1000)
            t1 = time.monotonic_ns()
            lock.release()
            print(f"write {who} {t0} {t1}", flush=True)
    finally:
        zk.stop()
        zk.close()
    print("DONE", flush=True)


main()
