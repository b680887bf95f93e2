# kazoo against a server given as argv[1]: ensure_path, a Lock, a ChildrenWatch, a transaction, a clean stop.
import sys
import threading
from kazoo.client import KazooClient

zk = KazooClient(hosts=sys.argv[1], timeout=10)
zk.start(timeout=10)
print("connected", zk.connected)
zk.ensure_path("/kazoo/a/b")
print("exists", zk.exists("/kazoo/a/b") is not None)
seen = []
changed = threading.Event()

@zk.ChildrenWatch("/kazoo")
def watch(children):
    seen.append(sorted(children))
    if len(seen) > 1:
        changed.set()

lock = zk.Lock("/kazoo/lock", "me")
with lock:
    print("locked", lock.is_acquired)
changed.wait(10)
print("children", seen[-1])
tx = zk.transaction()
tx.create("/kazoo/t", b"x")
tx.set_data("/kazoo/t", b"y")
results = tx.commit()
print("transaction", results[0], results[1].version, results[1].dataLength)
data, stat = zk.get("/kazoo/t")
print("get", data.decode(), stat.version)
zk.stop()
print("stopped")
