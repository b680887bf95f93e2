# kazoo side of the SetPartitioner interop test: kazoo's own SetPartitioner on a path shared with zkts.
#   kazoo_partitioner.py <hosts> <path> <identifier> <time_boundary_s> <item,item,...>
# runs kazoo's documented loop; prints "STATE <state>" on every state change and "ACQUIRED <item,item,...>"
# (its set, sorted) each time it acquires; on a line "finish" on stdin it calls finish() and prints FINISHED.
import select
import sys
import time

from kazoo.client import KazooClient

hosts, path, identifier, boundary, items = sys.argv[1:6]
zk = KazooClient(hosts=hosts)
zk.start(timeout=20)
try:
    p = zk.SetPartitioner(path=path, set=items.split(","), identifier=identifier, time_boundary=float(boundary))
    last = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if (p.state, p.state_id) != last:
            last = (p.state, p.state_id)
            print("STATE %s" % p.state)
            if p.acquired:
                print("ACQUIRED %s" % ",".join(sorted(p)))
            sys.stdout.flush()
        if p.failed:
            raise SystemExit("partitioner failed")
        elif p.release:
            p.release_set()
        elif p.allocating:
            p.wait_for_acquire(timeout=0.05)
        ready, _, _ = select.select([sys.stdin], [], [], 0.02)
        if ready and sys.stdin.readline().strip() == "finish":
            p.finish()
            print("FINISHED")
            sys.stdout.flush()
            break
finally:
    zk.stop()
    zk.close()
