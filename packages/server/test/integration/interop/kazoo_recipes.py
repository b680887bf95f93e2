# kazoo recipes against the server under test, in their own process.
#
#   kazoo_recipes.py election <hosts> <path> <id>
#       an Election: prints "LEADER <id>" when it runs, then waits for a line on stdin, then prints CLOSED.
#   kazoo_recipes.py datawatch <hosts> <path> <last>
#       a DataWatch: prints "DATA <value>" (or "DATA None") per call, and exits once the value is <last>.
import sys
import threading

from kazoo.client import KazooClient


def main() -> None:
    mode, hosts, path = sys.argv[1], sys.argv[2], sys.argv[3]
    zk = KazooClient(hosts=hosts, timeout=10)
    zk.start(timeout=30)
    try:
        if mode == "election":
            who = sys.argv[4]

            def lead() -> None:
                print(f"LEADER {who}", flush=True)
                sys.stdin.readline()

            zk.Election(path, who).run(lead)
            print(f"CLOSED {who}", flush=True)
        else:
            last = sys.argv[4]
            done = threading.Event()

            def watch(data, _stat) -> None:
                value = None if data is None else data.decode()
                print(f"DATA {value}", flush=True)
                if value == last:
                    done.set()

            zk.DataWatch(path, watch)
            print("WATCHING", flush=True)
            if not done.wait(60):
                raise SystemExit("no last value in 60 s")
    finally:
        zk.stop()
        zk.close()


main()
