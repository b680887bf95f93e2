// Curator's side of the cache rows: CuratorCache (curator-recipes 5.4, Debian's jars) on the same tree as zkts
// and kazoo. Usage: java -cp <jars>:<classes> CacheBench <connectString> <tree> dirs=… leaves=… events=… [warmEvents=…]
// Measures, after a warm-up load of <tree>/warm: the load of <tree>/main (start → initialized), the time from a
// setData by another session (ZooKeeper's own client) to the cache's change event (after warmEvents unmeasured
// ones, as on the zkts and kazoo sides), and last the heap another cache of it adds per node (heap used after two
// System.gc(), before and after; median of three). Prints one JSON line {"ok":true,"metrics":{…}}.

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

public final class CacheBench {
    public static void main(String[] args) throws Exception {
        String connectString = args[0], tree = args[1];
        Map<String, Integer> p = new LinkedHashMap<>();
        for (int i = 2; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            p.put(kv[0], Integer.parseInt(kv[1]));
        }
        try {
            System.out.println("{\"ok\":true,\"metrics\":" + json(run(connectString, tree, p)) + "}");
        } catch (Throwable t) {
            System.out.println("{\"ok\":false,\"error\":\"" + String.valueOf(t).replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
        }
        System.out.flush();
        System.exit(0);
    }

    private static long settledHeap() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static CuratorCache load(CuratorFramework client, String path) throws Exception {
        CountDownLatch initialized = new CountDownLatch(1);
        CuratorCache cache = CuratorCache.build(client, path);
        cache.listenable().addListener(CuratorCacheListener.builder().forInitialized(initialized::countDown).build());
        cache.start();
        if (!initialized.await(120, TimeUnit.SECONDS)) throw new IllegalStateException("CuratorCache did not initialize");
        return cache;
    }

    /** The heap one more cache of the tree holds, per node (a method of its own: nothing of it outlives the call). */
    private static double heapOfOne(CuratorFramework client, String tree) throws Exception {
        long heap0 = settledHeap();
        CuratorCache other = load(client, tree + "/main");
        double perNode = (settledHeap() - heap0) / (double) other.size();
        other.close();
        return perNode;
    }

    private static Map<String, Double> run(String connectString, String tree, Map<String, Integer> p) throws Exception {
        CuratorFramework client = CuratorFrameworkFactory.newClient(connectString, 30_000, 15_000, new RetryOneTime(100));
        client.start();
        if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) throw new IllegalStateException("connect timed out");
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper remote = new ZooKeeper(connectString, 30_000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) connected.countDown();
        });
        if (!connected.await(20, TimeUnit.SECONDS)) throw new IllegalStateException("connect timed out");
        try {
            // Warm-up: the same classes and code paths on the small tree (class loading and JIT are not charged).
            load(client, tree + "/warm").close();

            long t0 = System.nanoTime();
            CuratorCache cache = load(client, tree + "/main");
            double loadMs = (System.nanoTime() - t0) / 1e6;
            int nodes = cache.size();
            AtomicReference<String> waitingPath = new AtomicReference<>();
            AtomicReference<CountDownLatch> waiting = new AtomicReference<>();
            cache.listenable().addListener(CuratorCacheListener.builder().forChanges((oldNode, node) -> {
                CountDownLatch latch = waiting.get();
                if (latch != null && node.getPath().equals(waitingPath.get())) latch.countDown();
            }).build());
            int events = p.get("events"), dirs = p.get("dirs"), leaves = p.get("leaves");
            int warmEvents = p.getOrDefault("warmEvents", 0);
            byte[] payload = new byte[100];
            Arrays.fill(payload, (byte) 0x61);
            // Every round trip is timed, the warm-up's too, and only the last `events` kept: the same loop body
            // throughout, so the JIT has nothing new to compile when the measured part begins.
            double[] all = new double[warmEvents + events];
            for (int k = 0; k < all.length; k++) {
                String path = tree + "/main/d" + (k % dirs) + "/n" + ((k * 7) % leaves);
                CountDownLatch latch = new CountDownLatch(1);
                waitingPath.set(path);
                waiting.set(latch);
                long s = System.nanoTime();
                remote.setData(path, payload, -1);
                if (!latch.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("no event for " + path);
                all[k] = (System.nanoTime() - s) / 1e3;
            }
            double[] lat = Arrays.copyOfRange(all, warmEvents, all.length);
            cache.close();
            // The heap a cache holds: another cache of the same tree, once everything is warm; the median of three
            // (as on the Node side). After the events, as on every side: the collections it forces leave the
            // collector's background work behind, which would share the 2 cores with the server during the events.
            double[] perNode = {heapOfOne(client, tree), heapOfOne(client, tree), heapOfOne(client, tree)};
            Arrays.sort(perNode);
            Arrays.sort(lat);
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("nodes", (double) nodes);
            m.put("loadMs", loadMs);
            m.put("heapPerNode", perNode[1]);
            m.put("eventP50Us", lat[Math.max(0, (int) Math.ceil(0.5 * events) - 1)]);
            m.put("eventP99Us", lat[Math.max(0, (int) Math.ceil(0.99 * events) - 1)]);
            return m;
        } finally {
            remote.close();
            client.close();
        }
    }

    private static String json(Map<String, Double> m) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, Double> e : m.entrySet()) {
            if (b.length() > 1) b.append(',');
            b.append('"').append(e.getKey()).append("\":").append(e.getValue());
        }
        return b.append('}').toString();
    }
}
