// The rows at scale on ZooKeeper's Java client, mirroring bench/harness/scale.ts (which says what each row
// measures and why): 1,000 sessions in one JVM, 100,000 watches replayed after a reconnect (through the
// harness's proxy, driven over its control port), a 1 MiB getData and a 100,000-child getChildren. Kept out of
// ZkBench.java so neither file grows past what one can read at once; it uses ZkBench's helpers.

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

final class ZkScale {
    static final List<String> WORKLOADS = Arrays.asList("sessions1k", "watchReplay", "getLarge", "children100k");

    private final String connectString;
    private final String base;
    private final Map<String, Integer> p;
    private final String fixture;

    ZkScale(String connectString, String base, Map<String, Integer> params, String fixture) {
        this.connectString = connectString;
        this.base = base;
        this.p = params;
        this.fixture = fixture;
    }

    Map<String, Double> run(String workload) throws Exception {
        switch (workload) {
            case "sessions1k": return sessions1k();
            case "watchReplay": return watchReplay();
            case "getLarge": return getLarge(base + "-large");
            case "children100k": return children100k();
            default: throw new IllegalArgumentException(workload);
        }
    }

    static String childName(int i) {
        return String.format("c%06d", i);
    }

    private String fixture() {
        if (fixture == null) throw new IllegalStateException("this workload needs the harness fixture");
        return fixture;
    }

    /** A session with its own timeout (the replay row asks for 60 s), connected. */
    private static ZooKeeper connect(String cs, int timeoutMs) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(cs, timeoutMs, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) connected.countDown();
        });
        if (!connected.await(20, TimeUnit.SECONDS)) throw new IllegalStateException("connect timed out");
        return zk;
    }

    /**
     * CPU time of every Java thread in ns (ThreadMXBean: clock_gettime per thread): getProcessCpuTime counts in
     * 10 ms ticks, too coarse for a mostly idle process. The JVM's own threads (GC, JIT) are left out; idle, they
     * hardly run.
     */
    private static long threadsCpuNanos() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long id : threads.getAllThreadIds()) {
            long t = threads.getThreadCpuTime(id);
            if (t > 0) sum += t;
        }
        return sum;
    }

    private static long rss() throws Exception {
        for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
        return 0;
    }

    /** The server's packet counter (four-letter word srvr), or NaN. */
    private double serverPacketsReceived() {
        String[] hp = connectString.split(",")[0].split(":");
        try (Socket s = new Socket(hp[0], Integer.parseInt(hp[1]))) {
            s.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            String text = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Matcher m = Pattern.compile("Received: (\\d+)").matcher(text);
            return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
        } catch (Exception e) {
            return Double.NaN;
        }
    }

    private Map<String, Double> sessions1k() throws Exception {
        int n = p.get("sessions"), window = p.get("connectWindow"), idleMs = p.get("idleMs");
        List<ZooKeeper> open = Collections.synchronizedList(new ArrayList<>());
        long heap0 = ZkBench.settledHeap(), rss0 = rss();
        Semaphore slots = new Semaphore(window);
        CountDownLatch all = new CountDownLatch(n);
        long cpu0 = ZkBench.cpuNanos(), t0 = System.nanoTime();
        Map<String, Double> m;
        double closeMs;
        try {
            for (int i = 0; i < n; i++) {
                slots.acquire();
                AtomicBoolean first = new AtomicBoolean(true);
                open.add(new ZooKeeper(connectString, 30_000, e -> {
                    if (e.getState() == Watcher.Event.KeeperState.SyncConnected && first.compareAndSet(true, false)) {
                        slots.release();
                        all.countDown();
                    }
                }));
            }
            if (!all.await(120, TimeUnit.SECONDS)) throw new IllegalStateException("sessions did not connect");
            double connectMs = (System.nanoTime() - t0) / 1e6, connectCpuMs = (ZkBench.cpuNanos() - cpu0) / 1e6;
            Thread.sleep(1000);
            long heap1 = ZkBench.settledHeap(), rss1 = rss();
            double received0 = serverPacketsReceived();
            long cpu1 = threadsCpuNanos(), t1 = System.nanoTime();
            Thread.sleep(idleMs);
            double seconds = (System.nanoTime() - t1) / 1e9, idleCpuUs = (threadsCpuNanos() - cpu1) / 1e3;
            double received1 = serverPacketsReceived();
            long rss2 = rss();
            m = ZkBench.metrics("sessions", n, "connectMs", connectMs, "connectCpuMs", connectCpuMs,
                "heapPerSession", (heap1 - heap0) / (double) n, "rssPerSession", (rss2 - rss0) / (double) n,
                "rssPerSessionConnected", (rss1 - rss0) / (double) n,
                "idleCpuMsPerSec", idleCpuUs / 1000 / seconds, "idleCpuUsPerSessionSec", idleCpuUs / seconds / n,
                "serverPacketsPerSec", (received1 - received0) / seconds);
        } finally {
            closeMs = closeAll(open, window);
        }
        m.put("closeMs", closeMs);
        return m;
    }

    /**
     * close() waits for the server's answer, then joins the session's threads; with 1,000 sessions the send
     * threads contend (their pings queue behind one another), so this takes about a minute here. Returns ms.
     */
    private static double closeAll(List<ZooKeeper> open, int parallel) throws Exception {
        long c0 = System.nanoTime();
        java.util.concurrent.ExecutorService closer = java.util.concurrent.Executors.newFixedThreadPool(parallel);
        for (ZooKeeper zk : open) closer.submit(() -> {
            zk.close();
            return null;
        });
        closer.shutdown();
        closer.awaitTermination(300, TimeUnit.SECONDS);
        return (System.nanoTime() - c0) / 1e6;
    }

    /** One line per command to the harness's proxy (replay-proxy.ts); returns the fields after "ok". */
    private static String[] send(Socket control, BufferedReader in, String command) throws Exception {
        OutputStream out = control.getOutputStream();
        out.write((command + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String reply = in.readLine();
        if (reply == null || !reply.startsWith("ok")) throw new IllegalStateException("proxy control " + command + ": " + reply);
        String rest = reply.substring(2).trim();
        return rest.isEmpty() ? new String[0] : rest.split(" ");
    }

    private Map<String, Double> watchReplay() throws Exception {
        int n = p.get("fixtureChildren"), window = p.get("window");
        String dir = fixture();
        try (Socket control = new Socket("127.0.0.1", p.get("controlPort"))) {
            InputStream raw = control.getInputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(raw, StandardCharsets.US_ASCII));
            ZooKeeper zk = connect("127.0.0.1:" + p.get("proxyPort"), 60_000);
            try {
                AtomicInteger delivered = new AtomicInteger();
                AtomicLong lastAt = new AtomicLong();
                // Session events (Disconnected, SyncConnected) reach every watcher too: only node events count.
                Watcher onEvent = e -> {
                    if (e.getType() == Watcher.Event.EventType.NodeDataChanged && delivered.incrementAndGet() == n) lastAt.set(System.nanoTime());
                };
                AsyncCallback.DataCallback got = (rc, path, ctx, data, stat) -> ((java.util.function.IntConsumer) ctx).accept(rc);
                long a0 = System.nanoTime();
                ZkBench.pipeline(n, window, (i, done) -> zk.getData(dir + "/" + childName(i), onEvent, got, done));
                double armMs = (System.nanoTime() - a0) / 1e6;
                send(control, in, "cut");
                send(control, in, "change");
                int early = delivered.get();
                long opened = System.nanoTime();
                send(control, in, "open");
                long deadline = System.currentTimeMillis() + 180_000;
                while (delivered.get() < n) {
                    if (System.currentTimeMillis() > deadline) throw new IllegalStateException(delivered.get() + " of " + n + " replayed watches fired");
                    Thread.sleep(5);
                }
                long t0 = Long.parseLong(send(control, in, "accepted")[0]);
                String[] frames = send(control, in, "frames");
                return ZkBench.metrics("watches", n, "delivered", delivered.get(), "deliveredBeforeReconnect", early,
                    "replayMs", (lastAt.get() - t0) / 1e6, "reconnectWaitMs", (t0 - opened) / 1e6,
                    "setWatchesFrames", Double.parseDouble(frames[0]), "largestSetWatchesBytes", Double.parseDouble(frames[1]),
                    "setWatchesBytes", Double.parseDouble(frames[2]), "connectionsAfterReopen", Double.parseDouble(frames[3]),
                    "armMs", armMs);
            } finally {
                zk.close();
            }
        }
    }

    private Map<String, Double> getLarge(String path) throws Exception {
        int bytes = p.get("largeBytes"), ops = p.get("largeOps");
        ZooKeeper zk = ZkBench.zk(connectString);
        try {
            byte[] data = new byte[bytes];
            Arrays.fill(data, (byte) 0x6c);
            ZkBench.create(zk, path, data);
            for (int i = 0; i < p.get("largeWarmup"); i++) check(zk.getData(path, false, null).length, bytes);
            double[] lat = new double[ops];
            long cpu0 = ZkBench.cpuNanos(), t0 = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                long s = System.nanoTime();
                check(zk.getData(path, false, null).length, bytes);
                lat[i] = (System.nanoTime() - s) / 1e6;
            }
            double ms = (System.nanoTime() - t0) / 1e6, cpuMs = (ZkBench.cpuNanos() - cpu0) / 1e6;
            Arrays.sort(lat);
            zk.delete(path, -1);
            return ZkBench.metrics("bytes", bytes, "ops", ops, "mbPerSec", (double) ops * bytes / 1e6 / (ms / 1000),
                "p50Ms", ZkBench.quantile(lat, 0.5), "cpuMsPerGet", cpuMs / ops);
        } finally {
            zk.close();
        }
    }

    private static void check(int got, int want) {
        if (got != want) throw new IllegalStateException("got " + got + " bytes/children, not " + want);
    }

    private Map<String, Double> children100k() throws Exception {
        int n = p.get("fixtureChildren"), calls = p.get("childrenCalls");
        String dir = fixture();
        ZooKeeper zk = ZkBench.zk(connectString);
        try {
            for (int i = 0; i < p.get("childrenWarmup"); i++) check(zk.getChildren(dir, false).size(), n);
            double[] lat = new double[calls];
            long cpu0 = ZkBench.cpuNanos(), t0 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                long s = System.nanoTime();
                check(zk.getChildren(dir, false).size(), n);
                lat[i] = (System.nanoTime() - s) / 1e6;
            }
            double ms = (System.nanoTime() - t0) / 1e6, cpuMs = (ZkBench.cpuNanos() - cpu0) / 1e6;
            Arrays.sort(lat);
            long heap0 = ZkBench.settledHeap();
            List<List<String>> kept = new ArrayList<>();
            for (int i = 0; i < 4; i++) kept.add(zk.getChildren(dir, false));
            long heap1 = ZkBench.settledHeap();
            return ZkBench.metrics("children", kept.get(0).size(), "calls", calls, "msPerCall", ZkBench.quantile(lat, 0.5),
                "meanMsPerCall", ms / calls, "cpuMsPerCall", cpuMs / calls, "resultHeapBytes", (heap1 - heap0) / (double) kept.size());
        } finally {
            zk.close();
        }
    }
}
