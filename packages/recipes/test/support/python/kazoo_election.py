# kazoo side of the election interop tests: kazoo's Election (a kazoo Lock whose data is the identifier) run
# term after term on a path shared with zkts LeaderSelectors.
#
#   kazoo_election.py <hosts> <path> <who> <terms> <holdMs>
#       Election.run <terms> times, each term leading for holdMs; prints "begin <who> <t0>" as the leader function
#       starts and "write <who> <t0> <t1>" as it returns (time.monotonic_ns, CLOCK_MONOTONIC: the test's clock),
#       then DONE. A term cut by kill -9 has a begin line and no write line.
import sys
import time

from kazoo.client import KazooClient


def main() -> None:
    hosts, path, who = sys.argv[1], sys.argv[2], sys.argv[3]
    terms, hold_ms = int(sys.argv[4]), int(sys.argv[5])
    # 4 s, as the zkts clients of these tests: a killed leader's node goes within that.
    zk = KazooClient(hosts=hosts, timeout=4)
    zk.start(timeout=30)

    def lead() -> None:
        t0 = time.monotonic_ns()
        print(f"begin {who} {t0}", flush=True)
        time.sleep(hold_ms / 1000)
        print(f"write {who} {t0} {time.monotonic_ns()}", flush=True)

    try:
        election = zk.Election(path, who)
        for _ in range(terms):
            election.run(lead)
    finally:
        zk.stop()
        zk.close()
    print("DONE", flush=True)


main()
