// The Java side of the reconnect-storm row (bench/storm/run.ts): N ZooKeeper handles of the Java client 3.8 in
// one JVM, connected to the member the harness will kill (the survivors' proxies refuse until then). Prints
// "ready" once every handle is connected, then the time (System.currentTimeMillis) each handle was connected
// again after its connection dropped, as one JSON line, once all are back or after 60 s. The handles are not
// closed (closing 1,000 takes about a minute, their pings queueing): the JVM exits and the sessions expire.
// Arguments: connectString n.
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

public final class ZkStorm {
    public static void main(String[] args) throws Exception {
        String connectString = args[0];
        int n = Integer.parseInt(args[1]);
        CountDownLatch connected = new CountDownLatch(n);
        CountDownLatch back = new CountDownLatch(n);
        ConcurrentLinkedQueue<Long> times = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> lost = new ConcurrentLinkedQueue<>();
        AtomicInteger expired = new AtomicInteger();
        ZooKeeper[] handles = new ZooKeeper[n];
        for (int i = 0; i < n; i++) {
            final boolean[] state = { false, false }; // { was connected, dropped since }
            Watcher w = (WatchedEvent e) -> {
                synchronized (state) {
                    switch (e.getState()) {
                        case SyncConnected:
                            if (!state[0]) { state[0] = true; connected.countDown(); }
                            else if (state[1]) { state[1] = false; times.add(System.currentTimeMillis()); back.countDown(); }
                            break;
                        case Disconnected:
                            state[1] = true;
                            lost.add(System.currentTimeMillis());
                            break;
                        case Expired:
                            expired.incrementAndGet();
                            break;
                        default:
                            break;
                    }
                }
            };
            handles[i] = new ZooKeeper(connectString, 30_000, w);
        }
        if (!connected.await(180, TimeUnit.SECONDS)) {
            System.out.println("{\"error\":\"only " + (n - connected.getCount()) + " of " + n + " handles connected\"}");
            System.exit(1);
        }
        System.out.println("ready");
        System.out.flush();
        back.await(60, TimeUnit.SECONDS);
        StringBuilder sb = new StringBuilder("{\"back\":[");
        boolean first = true;
        for (Long t : times) {
            if (!first) sb.append(',');
            sb.append(t);
            first = false;
        }
        sb.append("],\"lost\":[");
        first = true;
        for (Long t : lost) {
            if (!first) sb.append(',');
            sb.append(t);
            first = false;
        }
        sb.append("],\"expired\":").append(expired.get()).append('}');
        System.out.println(sb);
        System.out.flush();
        System.exit(0);
    }
}
