# kazoo recipes against the server under test, in their own process.
#
#   kazoo_recipes.py election <hosts> <path> <id>
#       an Election: prints "LEADER <id>" when it runs, then waits for a line on stdin, then prints CLOSED.
#   kazoo_recipes.py datawatch <hosts> <path> <last>
#       a DataWatch: prints "DATA <value>" (or "DATA None") per call, and exits once the value is <last>.
import sys
import threading

from kazoo.client import KazooClient

_say_lock = threading.Lock()


def say(line: str) -> None:
    # One write per line, under a lock: kazoo calls the watch from its own thread while the main thread prints,
    # and print() writes the text and its newline separately, so two lines could be joined into one.
    with _say_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def main() -> None:
    mode, hosts, path = sys.argv[1], sys.argv[2], sys.argv[3]
    zk = KazooClient(hosts=hosts, timeout=10)
    zk.start(timeout=30)
    try:
        if mode == "election":
            who = sys.argv[4]

            def lead() -> None:
                say(f"LEADER {who}")
                sys.stdin.readline()

            zk.Election(path, who).run(lead)
            say(f"CLOSED {who}")
        else:
            last = sys.argv[4]
            done = threading.Event()

            def watch(data, _stat) -> None:
                value = None if data is None else data.decode()
                say(f"DATA {value}")
                if value == last:
                    done.set()

            zk.DataWatch(path, watch)
            say("WATCHING")
            if not done.wait(60):
                raise SystemExit("no last value in 60 s")
    finally:
        zk.stop()
        zk.close()


main()
