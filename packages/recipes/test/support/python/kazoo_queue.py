# kazoo side of the LockingQueue interop test: kazoo's own LockingQueue on a path.
#   kazoo_queue.py <hosts> <path> put <priority> <value>...      puts each value, prints DONE
#   kazoo_queue.py <hosts> <path> consume <n>                     n times get + consume: prints "GOT <value>", DONE
#   kazoo_queue.py <hosts> <path> drain <idle_s>                 get + consume until nothing comes for idle_s:
#                                                                 prints "GOT <value>" for each, DONE
#   kazoo_queue.py <hosts> <path> hold                            gets one: prints "HELD <value>", then reads a
#                                                                 line on stdin ("consume" or "release"), does it,
#                                                                 prints "RESULT <True|False>", DONE
import sys

from kazoo.client import KazooClient

hosts, path, command = sys.argv[1], sys.argv[2], sys.argv[3]
args = sys.argv[4:]
zk = KazooClient(hosts=hosts)
zk.start(timeout=20)
try:
    queue = zk.LockingQueue(path)
    if command == "put":
        for value in args[1:]:
            queue.put(value.encode(), priority=int(args[0]))
    elif command == "consume":
        for _ in range(int(args[0])):
            value = queue.get(timeout=20)
            if value is None:
                raise SystemExit("nothing to get within 20 s")
            print("GOT %s" % value.decode())
            sys.stdout.flush()
            if not queue.consume():
                raise SystemExit("consume failed")
    elif command == "drain":
        while True:
            value = queue.get(timeout=float(args[0]))
            if value is None:
                break
            if not queue.consume():
                raise SystemExit("consume failed")
            print("GOT %s" % value.decode())
            sys.stdout.flush()
    elif command == "hold":
        value = queue.get(timeout=20)
        if value is None:
            raise SystemExit("nothing to get within 20 s")
        print("HELD %s" % value.decode())
        sys.stdout.flush()
        what = sys.stdin.readline().strip()
        print("RESULT %s" % (queue.consume() if what == "consume" else queue.release()))
    else:
        raise SystemExit("unknown command " + command)
    print("DONE")
    sys.stdout.flush()
finally:
    zk.stop()
    zk.close()
