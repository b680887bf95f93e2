# kazoo's side of the cache rows: kazoo.recipe.cache.TreeCache (Debian's python3-kazoo) on the same tree as zkts
# and Curator. Usage: /usr/bin/python3 kazoo_cache.py <connectString> <tree> <dirs> <leaves> <events> [<warmEvents>]
# Measures, after a warm-up load of <tree>/warm: the load of <tree>/main (start -> INITIALIZED), the memory it
# added per node (a second load of the same tree under tracemalloc, since tracing slows the first), and the time
# from a set() by another session to the cache's NODE_UPDATED event (after <warmEvents> unmeasured ones, as on the
# zkts and Curator sides). Prints one JSON line {"ok":true,...}.
import json
import sys
import threading
import time
import tracemalloc

from kazoo.client import KazooClient
from kazoo.recipe.cache import TreeCache, TreeEvent


def load(client, path):
    initialized = threading.Event()
    cache = TreeCache(client, path)

    def on_event(event):
        if event.event_type == TreeEvent.INITIALIZED:
            initialized.set()

    cache.listen(on_event)
    cache.start()
    if not initialized.wait(300):
        raise RuntimeError('TreeCache did not initialize')
    return cache


def count(cache, path):
    n = 0
    stack = [path]
    while stack:
        p = stack.pop()
        if cache.get_data(p) is None:
            continue
        n += 1
        stack.extend(p + '/' + c for c in (cache.get_children(p) or ()))
    return n


def main():
    connect, tree, dirs, leaves, events = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    warm_events = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    client = KazooClient(hosts=connect, timeout=30)
    remote = KazooClient(hosts=connect, timeout=30)
    client.start(20)
    remote.start(20)
    try:
        load(client, tree + '/warm').close()

        t0 = time.perf_counter()
        cache = load(client, tree + '/main')
        load_ms = (time.perf_counter() - t0) * 1000
        nodes = count(cache, tree + '/main')

        waiting = {}

        def on_change(event):
            if event.event_type == TreeEvent.NODE_UPDATED and event.event_data is not None:
                latch = waiting.get(event.event_data.path)
                if latch is not None:
                    latch.set()

        cache.listen(on_change)
        payload = b'a' * 100
        lat = []
        for k in range(warm_events + events):
            i = k - warm_events
            path = '%s/main/d%d/n%d' % (tree, k % dirs, (k * 7) % leaves)
            latch = threading.Event()
            waiting.clear()
            waiting[path] = latch
            s = time.perf_counter()
            remote.set(path, payload)
            if not latch.wait(30):
                raise RuntimeError('no event for ' + path)
            if i >= 0:
                lat.append((time.perf_counter() - s) * 1e6)
        cache.close()

        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        traced = load(client, tree + '/main')
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        traced.close()

        lat.sort()
        q = lambda p: lat[max(0, min(len(lat) - 1, int(-(-p * len(lat) // 1)) - 1))]
        metrics = {'nodes': nodes, 'loadMs': load_ms, 'heapPerNode': (after - before) / nodes, 'eventP50Us': q(0.5), 'eventP99Us': q(0.99)}
        print(json.dumps({'ok': True, 'metrics': metrics}))
    except Exception as e:  # noqa: BLE001 - reported to the harness as the row's error
        print(json.dumps({'ok': False, 'error': repr(e)}))
    finally:
        remote.stop()
        client.stop()


main()
