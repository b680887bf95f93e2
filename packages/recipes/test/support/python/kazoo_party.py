# kazoo side of the party interop tests: kazoo's own Party or ShallowParty on a path shared with zkts.
#   kazoo_party.py <hosts> <path> <party|shallow> <identifier> <expect>
# joins, polls the members (kazoo's iteration) until <expect> is among them, prints "SAW <expect>" and
# "MEMBERS <id,id,...>" (sorted), then waits for a line on stdin, leaves and prints LEFT.
import sys
import time

from kazoo.client import KazooClient

hosts, path, kind, identifier, expect = sys.argv[1:6]
zk = KazooClient(hosts=hosts)
zk.start(timeout=20)
try:
    party = zk.Party(path, identifier) if kind == "party" else zk.ShallowParty(path, identifier)
    party.join()
    deadline = time.monotonic() + 30
    while True:
        members = list(party)
        if expect in members:
            print("SAW %s" % expect)
            print("MEMBERS %s" % ",".join(sorted(members)))
            sys.stdout.flush()
            break
        if time.monotonic() > deadline:
            raise SystemExit("never saw %s in %r" % (expect, members))
        time.sleep(0.02)
    sys.stdin.readline()
    party.leave()
    print("LEFT")
    sys.stdout.flush()
finally:
    zk.stop()
    zk.close()
