// The lock workloads of `pnpm bench` on Curator's InterProcessMutex (the Java side of bench/harness/workloads.ts's
// lock rows), run by ZkBench.java with the same parameters; CPU and heap are measured as ZkBench does.

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

final class ZkCurator {
    static final List<String> WORKLOADS = Arrays.asList("mutexUncontended", "handoffs8", "handoffs32", "waiters");

    private final String connectString;
    private final String base;
    private final Map<String, Integer> p;

    ZkCurator(String connectString, String base, Map<String, Integer> params) {
        this.connectString = connectString;
        this.base = base;
        this.p = params;
    }

    Map<String, Double> run(String workload) throws Exception {
        String dir = base + "-" + workload;
        switch (workload) {
            case "mutexUncontended": return mutexUncontended(dir);
            case "handoffs8": return handoffs(dir, 8);
            case "handoffs32": return handoffs(dir, 32);
            case "waiters": return waiters(dir);
            default: throw new IllegalArgumentException(workload);
        }
    }

    /** Watch events delivered to path watchers of the sessions built by countingCurator(). */
    private static final AtomicLong WATCH_EVENTS = new AtomicLong();

    private CuratorFramework curator(boolean counting) throws Exception {
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder()
            .connectString(connectString).sessionTimeoutMs(30_000).connectionTimeoutMs(20_000).retryPolicy(new RetryOneTime(100));
        if (counting) b.zookeeperFactory((cs, timeout, watcher, ro) -> new CountingZooKeeper(cs, timeout, watcher, ro));
        CuratorFramework c = b.build();
        c.start();
        if (!c.blockUntilConnected(20, TimeUnit.SECONDS)) throw new IllegalStateException("curator connect timed out");
        return c;
    }

    private Map<String, Double> mutexUncontended(String dir) throws Exception {
        try (CuratorFramework c = curator(false)) {
            c.create().forPath(dir);
            InterProcessMutex m = new InterProcessMutex(c, dir + "/lock");
            for (int i = 0; i < p.get("lockWarmup"); i++) {
                m.acquire();
                m.release();
            }
            int cycles = p.get("lockCycles");
            long cpu0 = ZkBench.cpuNanos(), t0 = System.nanoTime();
            for (int i = 0; i < cycles; i++) {
                m.acquire();
                m.release();
            }
            double ms = (System.nanoTime() - t0) / 1e6, cpuUs = (ZkBench.cpuNanos() - cpu0) / 1e3;
            return ZkBench.metrics("cycles", cycles, "cyclesPerSec", cycles / (ms / 1000), "cpuUsPerCycle", cpuUs / cycles);
        }
    }

    /** N sessions, one thread each, looping acquire/release until `target` acquisitions in total. */
    private static double[] contend(List<InterProcessMutex> mutexes, int target, boolean check) throws Exception {
        AtomicInteger count = new AtomicInteger();
        AtomicBoolean inside = new AtomicBoolean();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicLong reachedAt = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        long t0 = System.nanoTime(), cpu0 = ZkBench.cpuNanos();
        for (InterProcessMutex m : mutexes) {
            Thread t = new Thread(() -> {
                try {
                    for (;;) {
                        m.acquire();
                        if (!inside.compareAndSet(false, true)) overlaps.incrementAndGet();
                        if (check) Thread.yield();
                        int n = count.incrementAndGet();
                        if (n == target) reachedAt.set(System.nanoTime());
                        inside.set(false);
                        m.release();
                        if (n >= target) return;
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) t.join();
        if (failure.get() != null) throw new IllegalStateException(failure.get());
        return new double[] {(reachedAt.get() - t0) / 1e6, (ZkBench.cpuNanos() - cpu0) / 1e3, overlaps.get(), count.get()};
    }

    private Map<String, Double> handoffs(String dir, int contenders) throws Exception {
        List<CuratorFramework> clients = new ArrayList<>();
        try {
            for (int i = 0; i < contenders; i++) clients.add(curator(false));
            clients.get(0).create().forPath(dir);
            List<InterProcessMutex> mutexes = new ArrayList<>();
            for (CuratorFramework c : clients) mutexes.add(new InterProcessMutex(c, dir + "/lock"));
            double[] warm = contend(mutexes, Math.max(contenders * 4, 100), true);
            int target = p.get("handoffs");
            double[] timed = contend(mutexes, target, false);
            int handed = target - 1;
            return ZkBench.metrics("contenders", contenders, "handoffs", handed, "handoffsPerSec", handed / (timed[0] / 1000),
                "cpuUsPerHandoff", timed[1] / timed[3], "overlapsInWarmup", warm[2]);
        } finally {
            for (CuratorFramework c : clients) c.close();
        }
    }

    private Map<String, Double> waiters(String dir) throws Exception {
        int w = p.get("waiters"), sessions = p.get("waiterSessions");
        List<CuratorFramework> clients = new ArrayList<>();
        try {
            for (int i = 0; i < sessions; i++) clients.add(curator(true));
            CuratorFramework first = clients.get(0);
            first.create().forPath(dir);
            String lockPath = dir + "/lock";
            InterProcessMutex holder = new InterProcessMutex(first, lockPath);
            holder.acquire();
            long heap0 = ZkBench.settledHeap();
            AtomicInteger acquired = new AtomicInteger();
            AtomicLong lastAt = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < w; i++) {
                InterProcessMutex m = new InterProcessMutex(clients.get(i % sessions), lockPath);
                Thread t = new Thread(() -> {
                    try {
                        m.acquire();
                        acquired.incrementAndGet();
                        lastAt.set(System.nanoTime());
                        m.release();
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "waiter-" + i);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
            long deadline = System.currentTimeMillis() + 60_000;
            while (first.getChildren().forPath(lockPath).size() < w + 1) {
                if (System.currentTimeMillis() > deadline) throw new IllegalStateException("waiters did not queue");
                Thread.sleep(5);
            }
            Thread.sleep(300);
            long heap1 = ZkBench.settledHeap();
            long events0 = WATCH_EVENTS.get();
            long t0 = System.nanoTime();
            holder.release();
            for (Thread t : threads) t.join(120_000);
            if (failure.get() != null) throw new IllegalStateException(failure.get());
            long events = WATCH_EVENTS.get() - events0;
            double cascadeMs = (lastAt.get() - t0) / 1e6;
            return ZkBench.metrics("waiters", w, "sessions", sessions, "eventsPerHandoff", events / (double) w, "watchEvents", events,
                "heapPerWaiter", (heap1 - heap0) / (double) w, "cascadeMs", cascadeMs,
                "handoffsPerSec", acquired.get() / (cascadeMs / 1000));
        } finally {
            for (CuratorFramework c : clients) c.close();
        }
    }


    /**
     * A ZooKeeper that counts the watch events its path watchers receive (Curator's lock sets its watch through
     * getData(path, watcher, stat)). Watchers are wrapped; removeWatches maps Curator's watcher to our wrapper
     * so Curator's own watcher clean-up still finds it.
     */
    static final class CountingZooKeeper extends ZooKeeper {
        private final Map<Watcher, Watcher> wrappers = new java.util.concurrent.ConcurrentHashMap<>();

        CountingZooKeeper(String cs, int timeout, Watcher watcher, boolean readOnly) throws java.io.IOException {
            super(cs, timeout, watcher, readOnly);
        }

        private Watcher wrap(Watcher w) {
            if (w == null) return null;
            return wrappers.computeIfAbsent(w, inner -> e -> {
                if (e.getType() != Watcher.Event.EventType.None) WATCH_EVENTS.incrementAndGet();
                wrappers.remove(inner);
                inner.process(e);
            });
        }

        private Watcher unwrap(Watcher w) {
            Watcher mapped = w == null ? null : wrappers.remove(w);
            return mapped == null ? w : mapped;
        }

        @Override
        public byte[] getData(String path, Watcher watcher, org.apache.zookeeper.data.Stat stat)
            throws KeeperException, InterruptedException {
            return super.getData(path, wrap(watcher), stat);
        }

        @Override
        public void getData(String path, Watcher watcher, AsyncCallback.DataCallback cb, Object ctx) {
            super.getData(path, wrap(watcher), cb, ctx);
        }

        @Override
        public org.apache.zookeeper.data.Stat exists(String path, Watcher watcher) throws KeeperException, InterruptedException {
            return super.exists(path, wrap(watcher));
        }

        @Override
        public void removeWatches(String path, Watcher watcher, Watcher.WatcherType type, boolean local)
            throws InterruptedException, KeeperException {
            super.removeWatches(path, unwrap(watcher), type, local);
        }

        @Override
        public void removeWatches(String path, Watcher watcher, Watcher.WatcherType type, boolean local,
            AsyncCallback.VoidCallback cb, Object ctx) {
            super.removeWatches(path, unwrap(watcher), type, local, cb, ctx);
        }
    }
}
