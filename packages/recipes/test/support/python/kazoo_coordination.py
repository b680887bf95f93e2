# kazoo side of the semaphore and barrier interop tests: kazoo's Semaphore, Barrier and DoubleBarrier on paths
# shared with zkts. Times are time.monotonic_ns (CLOCK_MONOTONIC: the same clock as the test's).
#
#   kazoo_coordination.py semaphore <hosts> <path> <maxLeases> <threads> <grants> <holdMs>
#       one kazoo Semaphore per thread: acquire, hold holdMs, release, <grants> times; after each prints
#       "lease kazoo-<n> <t0> <t1>", then DONE once every thread is done.
#   kazoo_coordination.py barrier-set | barrier-remove <hosts> <path>
#       Barrier.create() / remove(); prints DONE.
#   kazoo_coordination.py barrier-wait <hosts> <path>
#       prints WAITING, then Barrier.wait(60); prints "CLEARED <t>" (or TIMEOUT).
#   kazoo_coordination.py double-barrier <hosts> <path> <members> <who>
#       DoubleBarrier: prints "JOINING <who> <t>", enter(), "ENTERED <who> <t>"; waits for a line on stdin,
#       prints "LEAVING <who> <t>", leave(), "LEFT <who> <t>".
import sys
import threading
import time

from kazoo.client import KazooClient


_say_lock = threading.Lock()


def say(line: str) -> None:
    # One write per line, under a lock: print() writes the text and its newline separately, so two threads
    # printing at once can join two lines into one ("lease a ...lease b ...") that the test cannot parse.
    with _say_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def semaphore(zk: KazooClient, path: str, max_leases: int, threads: int, grants: int, hold_ms: int) -> None:
    failures = []

    def run(who: str) -> None:
        try:
            sem = zk.Semaphore(path, identifier=who, max_leases=max_leases)
            for _ in range(grants):
                if not sem.acquire(timeout=60):
                    raise RuntimeError(f"{who}: no lease in 60 s")
                t0 = time.monotonic_ns()
                time.sleep(hold_ms / 1000)
                t1 = time.monotonic_ns()
                sem.release()
                say(f"lease {who} {t0} {t1}")
        except Exception as e:  # reported below: a thread's failure fails the process
            failures.append(e)

    ts = [threading.Thread(target=run, args=(f"kazoo-{n}",)) for n in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if failures:
        raise failures[0]
    say("DONE")


def main() -> None:
    mode, hosts, path = sys.argv[1], sys.argv[2], sys.argv[3]
    zk = KazooClient(hosts=hosts, timeout=10)
    zk.start(timeout=30)
    try:
        if mode == "semaphore":
            semaphore(zk, path, *(int(a) for a in sys.argv[4:8]))
        elif mode == "barrier-set":
            zk.Barrier(path).create()
            say("DONE")
        elif mode == "barrier-remove":
            zk.Barrier(path).remove()
            say("DONE")
        elif mode == "barrier-wait":
            say("WAITING")
            say(f"CLEARED {time.monotonic_ns()}" if zk.Barrier(path).wait(60) else "TIMEOUT")
        elif mode == "double-barrier":
            who = sys.argv[5]
            barrier = zk.DoubleBarrier(path, int(sys.argv[4]), identifier=who)
            say(f"JOINING {who} {time.monotonic_ns()}")
            barrier.enter()
            say(f"ENTERED {who} {time.monotonic_ns()}")
            sys.stdin.readline()
            say(f"LEAVING {who} {time.monotonic_ns()}")
            barrier.leave()
            say(f"LEFT {who} {time.monotonic_ns()}")
        else:
            raise SystemExit(f"unknown mode {mode}")
    finally:
        zk.stop()
        zk.close()


main()
