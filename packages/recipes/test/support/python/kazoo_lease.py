# kazoo side of the lease interop test: kazoo's own NonBlockingLease (or MultiNonBlockingLease with a count).
#   kazoo_lease.py <hosts> <path> <identifier> <duration_s> [count]
# prints "OBTAINED <True|False>", then for each lease node it finds (<path>/lease_holder, or <path>/<n>/lease_holder)
# what kazoo reads there: "NODE <n> HOLDER <holder> END <end> SAME_BYTES <True|False>" (SAME_BYTES: the raw data
# equals json.dumps of what it decodes to, i.e. byte for byte kazoo's own format), then DONE.
import datetime
import json
import sys

from kazoo.client import KazooClient

hosts, path, identifier, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
count = int(sys.argv[5]) if len(sys.argv) > 5 else None
zk = KazooClient(hosts=hosts)
zk.start(timeout=20)
try:
    duration = datetime.timedelta(seconds=seconds)
    if count is None:
        lease = zk.NonBlockingLease(path, duration, identifier=identifier)
        nodes = [("-", path + "/lease_holder")]
    else:
        lease = zk.MultiNonBlockingLease(count, path, duration, identifier=identifier)
        nodes = [(str(n), "%s/%d/lease_holder" % (path, n)) for n in range(count)]
    print("OBTAINED %s" % bool(lease))
    for name, node in nodes:
        if not zk.exists(node):
            continue
        raw, _ = zk.get(node)
        data = json.loads(raw.decode("utf-8"))
        end = datetime.datetime.strptime(data["end"], "%Y-%m-%dT%H:%M:%S")
        same = json.dumps(data).encode("utf-8") == raw
        print("NODE %s HOLDER %s END %s SAME_BYTES %s" % (name, data["holder"], end.isoformat(), same))
    print("DONE")
    sys.stdout.flush()
finally:
    zk.stop()
    zk.close()
