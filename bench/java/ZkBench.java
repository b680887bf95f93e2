// The Java side of `pnpm bench`: the same workloads as bench/harness/workloads.ts, on ZooKeeper's own Java
// client (data workloads here, the rows at scale in ZkScale.java) and on Curator's InterProcessMutex (lock
// workloads, ZkCurator.java), against the same server.
// Usage: java -cp <jars>:<classes> ZkBench <connectString> <base> key=value… (the Node harness passes the
// same parameters it gives the Node runners). Prints one JSON line per workload:
//   {"client":"java"|"curator","workload":"getPipelined",…,"ok":true,"metrics":{…}}
// CPU is the whole JVM's process CPU time (com.sun.management.OperatingSystemMXBean), JIT and GC included,
// just as process.cpuUsage() covers every thread of a Node process.

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

public final class ZkBench {
    private static final byte[] PAYLOAD = filled(100);
    private static final byte[] EMPTY = new byte[0];

    private final String connectString;
    private final String base;
    private final Map<String, Integer> p;

    private ZkBench(String connectString, String base, Map<String, Integer> params) {
        this.connectString = connectString;
        this.base = base;
        this.p = params;
    }

    public static void main(String[] args) throws Exception {
        Map<String, Integer> params = new LinkedHashMap<>();
        String fixture = null;
        List<String> only = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            if (kv[0].equals("only")) only.addAll(Arrays.asList(kv[1].split(",")));
            else if (kv[0].equals("fixture")) fixture = kv[1];
            else params.put(kv[0], Integer.parseInt(kv[1]));
        }
        ZkBench bench = new ZkBench(args[0], args[1], params);
        String[][] plan = {
            {"java", "getPipelined"}, {"java", "getSequential"}, {"java", "createDelete"}, {"java", "watches"},
            {"curator", "mutexUncontended"}, {"curator", "handoffs8"}, {"curator", "handoffs32"}, {"curator", "waiters"},
            {"java", "sessions1k"}, {"java", "watchReplay"}, {"java", "getLarge"}, {"java", "children100k"},
        };
        ZkScale scale = new ZkScale(args[0], args[1], params, fixture);
        ZkCurator curator = new ZkCurator(args[0], args[1], params);
        for (String[] step : plan) {
            if (!only.isEmpty() && !only.contains(step[1])) continue;
            String line;
            try {
                Map<String, Double> m = ZkScale.WORKLOADS.contains(step[1]) ? scale.run(step[1])
                    : ZkCurator.WORKLOADS.contains(step[1]) ? curator.run(step[1]) : bench.run(step[1]);
                line = "{\"client\":\"" + step[0] + "\",\"workload\":\"" + step[1] + "\",\"ok\":true,\"metrics\":" + json(m) + "}";
            } catch (Throwable t) {
                line = "{\"client\":\"" + step[0] + "\",\"workload\":\"" + step[1] + "\",\"ok\":false,\"error\":\"" + escape(String.valueOf(t)) + "\"}";
            }
            System.out.println(line);
            System.out.flush();
        }
        System.exit(0);
    }

    private Map<String, Double> run(String workload) throws Exception {
        String dir = base + "-" + workload;
        switch (workload) {
            case "getPipelined": return getPipelined(dir);
            case "getSequential": return getSequential(dir);
            case "createDelete": return createDelete(dir);
            case "watches": return watches(dir);
            default: throw new IllegalArgumentException(workload);
        }
    }

    // ---- ZooKeeper Java client -------------------------------------------------------------------------

    private ZooKeeper zk() throws Exception {
        return zk(connectString);
    }

    static ZooKeeper zk(String connectString) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, 30_000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) connected.countDown();
        });
        if (!connected.await(20, TimeUnit.SECONDS)) throw new IllegalStateException("connect timed out");
        return zk;
    }

    static void create(ZooKeeper zk, String path, byte[] data) throws Exception {
        zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    }

    /** An operation that completes by calling done.run(rc) once. */
    interface Op {
        void issue(int i, java.util.function.IntConsumer done);
    }

    /** Runs `total` ops keeping `window` outstanding (a semaphore gates issuing, completions release it). */
    static void pipeline(int total, int window, Op op) throws Exception {
        Semaphore slots = new Semaphore(window);
        CountDownLatch all = new CountDownLatch(total);
        AtomicReference<String> failure = new AtomicReference<>();
        java.util.function.IntConsumer done = rc -> {
            if (rc != 0) failure.compareAndSet(null, KeeperException.Code.get(rc).toString());
            slots.release();
            all.countDown();
        };
        for (int i = 0; i < total; i++) {
            slots.acquire();
            op.issue(i, done);
        }
        if (!all.await(120, TimeUnit.SECONDS)) throw new IllegalStateException("pipeline timed out");
        if (failure.get() != null) throw new IllegalStateException(failure.get());
    }

    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    static long settledHeap() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private Map<String, Double> getPipelined(String dir) throws Exception {
        ZooKeeper zk = zk();
        try {
            create(zk, dir, PAYLOAD);
            int window = p.get("window"), ops = p.get("getOps");
            AsyncCallback.DataCallback cb = (rc, path, ctx, data, stat) -> ((java.util.function.IntConsumer) ctx).accept(rc);
            Op get = (i, done) -> zk.getData(dir, false, cb, done);
            pipeline(p.get("getWarmup"), window, get);
            long cpu0 = cpuNanos(), t0 = System.nanoTime();
            pipeline(ops, window, get);
            double ms = (System.nanoTime() - t0) / 1e6, cpuUs = (cpuNanos() - cpu0) / 1e3;
            return metrics("ops", ops, "opsPerSec", ops / (ms / 1000), "cpuUsPerOp", cpuUs / ops);
        } finally {
            zk.close();
        }
    }

    private Map<String, Double> getSequential(String dir) throws Exception {
        ZooKeeper zk = zk();
        try {
            create(zk, dir, PAYLOAD);
            int ops = p.get("seqOps");
            for (int i = 0; i < p.get("seqWarmup"); i++) zk.getData(dir, false, null);
            double[] lat = new double[ops];
            long cpu0 = cpuNanos(), t0 = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                long s = System.nanoTime();
                zk.getData(dir, false, null);
                lat[i] = (System.nanoTime() - s) / 1e3;
            }
            double ms = (System.nanoTime() - t0) / 1e6, cpuUs = (cpuNanos() - cpu0) / 1e3;
            Arrays.sort(lat);
            return metrics("ops", ops, "opsPerSec", ops / (ms / 1000), "p50Us", quantile(lat, 0.5), "p99Us", quantile(lat, 0.99),
                "cpuUsPerOp", cpuUs / ops);
        } finally {
            zk.close();
        }
    }

    private Map<String, Double> createDelete(String dir) throws Exception {
        ZooKeeper zk = zk();
        try {
            create(zk, dir, EMPTY);
            int window = p.get("window"), pairs = p.get("createDeletePairs");
            AsyncCallback.VoidCallback deleted = (rc, path, ctx) -> ((java.util.function.IntConsumer) ctx).accept(rc);
            AsyncCallback.StringCallback created = (rc, path, ctx, name) -> {
                if (rc != 0) ((java.util.function.IntConsumer) ctx).accept(rc);
                else zk.delete(path, -1, deleted, ctx);
            };
            java.util.function.Function<String, Op> unit = prefix -> (i, done) ->
                zk.create(dir + "/" + prefix + i, PAYLOAD, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, created, done);
            pipeline(p.get("createDeleteWarmup"), window, unit.apply("w"));
            long cpu0 = cpuNanos(), t0 = System.nanoTime();
            pipeline(pairs, window, unit.apply("n"));
            double ms = (System.nanoTime() - t0) / 1e6, cpuUs = (cpuNanos() - cpu0) / 1e3;
            return metrics("pairs", pairs, "pairsPerSec", pairs / (ms / 1000), "cpuUsPerPair", cpuUs / pairs);
        } finally {
            zk.close();
        }
    }

    private Map<String, Double> watches(String dir) throws Exception {
        ZooKeeper zk = zk();
        try {
            create(zk, dir, EMPTY);
            int n = p.get("watches"), window = p.get("window");
            AsyncCallback.StringCallback created = (rc, path, ctx, name) -> ((java.util.function.IntConsumer) ctx).accept(rc);
            pipeline(n, window, (i, done) ->
                zk.create(dir + "/n" + i, PAYLOAD, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, created, done));
            CountDownLatch delivered = new CountDownLatch(n);
            Watcher onEvent = e -> delivered.countDown();
            AsyncCallback.DataCallback got = (rc, path, ctx, data, stat) -> ((java.util.function.IntConsumer) ctx).accept(rc);
            long heap0 = settledHeap();
            long cpu0 = cpuNanos(), t0 = System.nanoTime();
            pipeline(n, window, (i, done) -> zk.getData(dir + "/n" + i, onEvent, got, done));
            double setMs = (System.nanoTime() - t0) / 1e6;
            long cpuSet = cpuNanos() - cpu0;
            long heap1 = settledHeap();
            byte[] changed = {0x62};
            AsyncCallback.StatCallback set = (rc, path, ctx, stat) -> ((java.util.function.IntConsumer) ctx).accept(rc);
            long cpu1 = cpuNanos(), t1 = System.nanoTime();
            pipeline(n, window, (i, done) -> zk.setData(dir + "/n" + i, changed, -1, set, done));
            if (!delivered.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("watch events missing");
            double triggerMs = (System.nanoTime() - t1) / 1e6;
            long cpuTrigger = cpuNanos() - cpu1;
            return metrics("watches", n, "delivered", n - delivered.getCount(), "totalMs", setMs + triggerMs, "setMs", setMs,
                "triggerMs", triggerMs, "heapBytes", heap1 - heap0, "heapPerWatch", (heap1 - heap0) / (double) n,
                "cpuUsPerWatch", (cpuSet + cpuTrigger) / 1e3 / n);
        } finally {
            zk.close();
        }
    }

    // ---- helpers -----------------------------------------------------------------------------------------

    private static byte[] filled(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 0x61);
        return b;
    }

    static double quantile(double[] sorted, double q) {
        int rank = (int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
        return sorted[rank];
    }

    static Map<String, Double> metrics(Object... kv) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], ((Number) kv[i + 1]).doubleValue());
        return m;
    }

    private static String json(Map<String, Double> m) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, Double> e : m.entrySet()) {
            if (sb.length() > 1) sb.append(',');
            double v = e.getValue();
            sb.append('"').append(e.getKey()).append("\":").append(Double.isFinite(v) ? Double.toString(v) : "null");
        }
        return sb.append('}').toString();
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
