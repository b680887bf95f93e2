# kazoo side of the counter interop test: kazoo's own Counter recipe on a path, changed n times by +1.
#   kazoo_counter.py <hosts> <path> <n> [curator]
# prints "VALUE <value>" (read after the changes) and DONE. With "curator", the counter is
# Counter(support_curator=True): 4-byte big-endian ints, Curator SharedCount's format.
import sys

from kazoo.client import KazooClient

hosts, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
curator = len(sys.argv) > 4 and sys.argv[4] == "curator"
zk = KazooClient(hosts=hosts)
zk.start(timeout=20)
try:
    counter = zk.Counter(path, support_curator=True) if curator else zk.Counter(path)
    for _ in range(n):
        counter += 1
    print("VALUE %r" % (counter.value,))
    print("DONE")
    sys.stdout.flush()
finally:
    zk.stop()
    zk.close()
