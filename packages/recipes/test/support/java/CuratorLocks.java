// Curator side of the interop tests: the real InterProcessMutex / InterProcessReadWriteLock contending with
// zkts on one path. Compiled by the test with javac against Debian's Curator and ZooKeeper jars.
//
//   mutex <connect> <lockPath> <iterations> <counterPath>
//       acquire, read counter, sleep 2 ms, write counter+1 (no version check), release; N times. Prints DONE.
//   hold-write|hold-read|hold-mutex <connect> <lockPath>
//       acquire (a side of an InterProcessReadWriteLock, or an InterProcessMutex), print "HELD <node>", wait for
//       a line on stdin, release, print RELEASED.
//   loop <connect> <grants> <holdMs> <kind>:<path>...      kind = mutex | write | read
//       one thread per spec, each with its own lock: acquire, hold holdMs, release, <grants> times; after each
//       grant print "<read|write> curator-<kind>-<n> <t0> <t1>" (System.nanoTime, CLOCK_MONOTONIC: the same
//       clock as the test's), then DONE once every thread is done.
//   probe <connect> <ms> <kind>:<path>...
//       for each spec in turn: try to acquire within ms, print "<spec> ACQUIRED" (and release) or "<spec> TIMEOUT".
//   atomic-long <connect> <path> <n>
//       a DistributedAtomicLong incremented n times (each until it succeeds); prints "VALUE <v>" (a get), then DONE.
//   shared-count <connect> <path> <n>
//       a SharedCount (seed 0) incremented n times by trySetCount; prints "VALUE <count>", then DONE.
//   hold-revocable <connect> <lockPath>
//       an InterProcessMutex made revocable: acquire, print "HELD <node>"; when a revocation is requested, print
//       REVOKED, release, print RELEASED.
//   revoke <connect> <node>
//       Revoker.attemptRevoke on a lock node; prints REVOKE-SENT.
//   latch <connect> <latchPath> <id>
//       a LeaderLatch with that id: prints "LEADER <id>" once it leads, waits for a line on stdin, closes, prints
//       CLOSED.
//   selector <connect> <leaderPath> <terms> <holdMs> <id>
//       a LeaderSelector (autoRequeue, id as node data) that leads <terms> times, holdMs each; prints
//       "TERM <id> <t0> <t1>" (System.nanoTime) after each term, then DONE.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicLong;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderSelector;
import org.apache.curator.framework.recipes.shared.SharedCount;
import org.apache.curator.framework.recipes.shared.VersionedValue;
import org.apache.curator.framework.recipes.leader.LeaderSelectorListenerAdapter;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.Revoker;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.retry.RetryNTimes;

public final class CuratorLocks {
  public static void main(String[] args) throws Exception {
    String mode = args[0];
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(args[1], 10_000, 5_000, new ExponentialBackoffRetry(100, 5))) {
      client.start();
      client.blockUntilConnected();
      if (mode.equals("mutex")) {
        mutex(client, args[2], Integer.parseInt(args[3]), args[4]);
      } else if (mode.equals("loop")) {
        loop(client, Integer.parseInt(args[2]), Long.parseLong(args[3]), args);
      } else if (mode.equals("atomic-long")) {
        DistributedAtomicLong counter = new DistributedAtomicLong(client, args[2], new RetryNTimes(1000, 1));
        for (int i = 0; i < Integer.parseInt(args[3]); i++) {
          while (!counter.increment().succeeded()) Thread.sleep(1);
        }
        System.out.println("VALUE " + counter.get().postValue());
        System.out.println("DONE");
        System.out.flush();
      } else if (mode.equals("shared-count")) {
        try (SharedCount count = new SharedCount(client, args[2], 0)) {
          count.start();
          for (int i = 0; i < Integer.parseInt(args[3]); i++) {
            for (;;) {
              VersionedValue<Integer> v = count.getVersionedValue();
              if (count.trySetCount(v, v.getValue() + 1)) break;
              Thread.sleep(1);
            }
          }
          System.out.println("VALUE " + count.getCount());
        }
        System.out.println("DONE");
        System.out.flush();
      } else if (mode.equals("hold-revocable")) {
        InterProcessMutex lock = new InterProcessMutex(client, args[2]);
        CountDownLatch revoked = new CountDownLatch(1);
        lock.makeRevocable(l -> revoked.countDown());
        lock.acquire();
        String node = null;
        long session = client.getZookeeperClient().getZooKeeper().getSessionId();
        for (String p : lock.getParticipantNodes()) {
          org.apache.zookeeper.data.Stat st = client.checkExists().forPath(p);
          if (st != null && st.getEphemeralOwner() == session) node = p;
        }
        System.out.println("HELD " + node);
        System.out.flush();
        revoked.await();
        System.out.println("REVOKED");
        lock.release();
        System.out.println("RELEASED");
        System.out.flush();
      } else if (mode.equals("revoke")) {
        Revoker.attemptRevoke(client, args[2]);
        System.out.println("REVOKE-SENT");
        System.out.flush();
      } else if (mode.equals("latch")) {
        LeaderLatch latch = new LeaderLatch(client, args[2], args[3]);
        latch.start();
        latch.await();
        System.out.println("LEADER " + args[3]);
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        latch.close();
        System.out.println("CLOSED");
        System.out.flush();
      } else if (mode.equals("selector")) {
        selector(client, args[2], Integer.parseInt(args[3]), Long.parseLong(args[4]), args[5]);
      } else if (mode.equals("probe")) {
        for (int i = 3; i < args.length; i++) {
          InterProcessLock lock = lockFor(client, args[i]);
          boolean acquired = lock.acquire(Long.parseLong(args[2]), TimeUnit.MILLISECONDS);
          System.out.println(args[i] + (acquired ? " ACQUIRED" : " TIMEOUT"));
          System.out.flush();
          if (acquired) lock.release();
        }
      } else {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, args[2]);
        InterProcessMutex lock = mode.equals("hold-mutex") ? new InterProcessMutex(client, args[2])
            : mode.equals("hold-write") ? rw.writeLock() : rw.readLock();
        lock.acquire();
        String node = null;
        for (String p : lock.getParticipantNodes()) {
          if (client.checkExists().forPath(p) != null && client.getData().forPath(p) != null) {
            // getParticipantNodes lists every contender; ours is the one our session owns.
            if (client.checkExists().forPath(p).getEphemeralOwner() == client.getZookeeperClient().getZooKeeper().getSessionId()) node = p;
          }
        }
        System.out.println("HELD " + node);
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        lock.release();
        System.out.println("RELEASED");
        System.out.flush();
      }
    }
  }

  private static void mutex(CuratorFramework client, String lockPath, int iterations, String counterPath) throws Exception {
    InterProcessMutex lock = new InterProcessMutex(client, lockPath);
    for (int i = 0; i < iterations; i++) {
      lock.acquire();
      try {
        int v = Integer.parseInt(new String(client.getData().forPath(counterPath), StandardCharsets.UTF_8));
        Thread.sleep(2);
        client.setData().forPath(counterPath, Integer.toString(v + 1).getBytes(StandardCharsets.UTF_8));
      } finally {
        lock.release();
      }
    }
    System.out.println("DONE");
    System.out.flush();
  }

  /** `mutex:/p` is an InterProcessMutex, `write:/p` / `read:/p` a side of an InterProcessReadWriteLock. */
  private static InterProcessLock lockFor(CuratorFramework client, String spec) {
    String kind = spec.substring(0, spec.indexOf(':'));
    String path = spec.substring(spec.indexOf(':') + 1);
    if (kind.equals("mutex")) return new InterProcessMutex(client, path);
    InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, path);
    return kind.equals("write") ? rw.writeLock() : rw.readLock();
  }

  private static void loop(CuratorFramework client, int grants, long holdMs, String[] args) throws Exception {
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (int i = 4; i < args.length; i++) {
      String spec = args[i];
      String kind = spec.substring(0, spec.indexOf(':'));
      String who = "curator-" + kind + "-" + (i - 4);
      String side = kind.equals("read") ? "read" : "write";
      InterProcessLock lock = lockFor(client, spec);
      Thread t = new Thread(() -> {
        try {
          for (int g = 0; g < grants; g++) {
            if (!lock.acquire(60, TimeUnit.SECONDS)) throw new IllegalStateException(who + ": no grant in 60 s");
            long t0 = System.nanoTime();
            Thread.sleep(holdMs);
            long t1 = System.nanoTime();
            lock.release();
            System.out.println(side + " " + who + " " + t0 + " " + t1);
          }
        } catch (Throwable e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) t.join();
    if (!failures.isEmpty()) throw new IllegalStateException("loop failed", failures.get(0));
    System.out.println("DONE");
    System.out.flush();
  }

  private static void selector(CuratorFramework client, String path, int terms, long holdMs, String id) throws Exception {
    CountDownLatch done = new CountDownLatch(terms);
    LeaderSelector selector = new LeaderSelector(client, path, new LeaderSelectorListenerAdapter() {
      @Override
      public void takeLeadership(CuratorFramework c) throws Exception {
        if (done.getCount() == 0) return;
        long t0 = System.nanoTime();
        Thread.sleep(holdMs);
        long t1 = System.nanoTime();
        System.out.println("TERM " + id + " " + t0 + " " + t1);
        System.out.flush();
        done.countDown();
      }
    });
    selector.setId(id);
    selector.autoRequeue();
    selector.start();
    done.await();
    selector.close();
    System.out.println("DONE");
    System.out.flush();
  }
}
