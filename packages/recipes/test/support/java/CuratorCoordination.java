// Curator side of the semaphore and barrier interop tests: the real InterProcessSemaphoreV2, DistributedBarrier
// and DistributedDoubleBarrier on paths shared with zkts. Compiled by the test with javac against Debian's jars.
// Times are System.nanoTime (CLOCK_MONOTONIC: the same clock as the test's).
//
//   semaphore <connect> <path> <maxLeases> <threads> <grants> <holdMs>
//       one InterProcessSemaphoreV2 per thread: acquire one lease, hold holdMs, return it, <grants> times; after
//       each prints "lease curator-<n> <t0> <t1>", then DONE once every thread is done.
//   barrier-set | barrier-remove <connect> <path>
//       DistributedBarrier.setBarrier() / removeBarrier(); prints DONE.
//   barrier-wait <connect> <path>
//       prints WAITING, then DistributedBarrier.waitOnBarrier(60 s); prints "CLEARED <t>" (or TIMEOUT).
//   double-barrier <connect> <path> <members> <who>
//       DistributedDoubleBarrier: prints "JOINING <who> <t>", enter(60 s), "ENTERED <who> <t>"; waits for a line
//       on stdin, prints "LEAVING <who> <t>", leave(60 s), "LEFT <who> <t>" (or TIMEOUT).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.barriers.DistributedBarrier;
import org.apache.curator.framework.recipes.barriers.DistributedDoubleBarrier;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.retry.ExponentialBackoffRetry;

public final class CuratorCoordination {
  public static void main(String[] args) throws Exception {
    String mode = args[0];
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(args[1], 10_000, 5_000, new ExponentialBackoffRetry(100, 5))) {
      client.start();
      client.blockUntilConnected();
      String path = args[2];
      switch (mode) {
        case "semaphore" -> semaphore(client, path, Integer.parseInt(args[3]), Integer.parseInt(args[4]), Integer.parseInt(args[5]), Long.parseLong(args[6]));
        case "barrier-set" -> {
          new DistributedBarrier(client, path).setBarrier();
          say("DONE");
        }
        case "barrier-remove" -> {
          new DistributedBarrier(client, path).removeBarrier();
          say("DONE");
        }
        case "barrier-wait" -> {
          say("WAITING");
          boolean cleared = new DistributedBarrier(client, path).waitOnBarrier(60, TimeUnit.SECONDS);
          say(cleared ? "CLEARED " + System.nanoTime() : "TIMEOUT");
        }
        case "double-barrier" -> doubleBarrier(client, path, Integer.parseInt(args[3]), args[4]);
        default -> throw new IllegalArgumentException("unknown mode " + mode);
      }
    }
  }

  private static synchronized void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  private static void semaphore(CuratorFramework client, String path, int maxLeases, int threads, int grants, long holdMs) throws Exception {
    List<Thread> running = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (int n = 0; n < threads; n++) {
      String who = "curator-" + n;
      Thread t = new Thread(() -> {
        try {
          InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, path, maxLeases);
          for (int i = 0; i < grants; i++) {
            Lease lease = semaphore.acquire(60, TimeUnit.SECONDS);
            if (lease == null) throw new IllegalStateException(who + ": no lease in 60 s");
            long t0 = System.nanoTime();
            Thread.sleep(holdMs);
            long t1 = System.nanoTime();
            semaphore.returnLease(lease);
            say("lease " + who + " " + t0 + " " + t1);
          }
        } catch (Throwable e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      });
      t.start();
      running.add(t);
    }
    for (Thread t : running) t.join();
    if (!failures.isEmpty()) throw new IllegalStateException("semaphore thread failed", failures.get(0));
    say("DONE");
  }

  private static void doubleBarrier(CuratorFramework client, String path, int members, String who) throws Exception {
    DistributedDoubleBarrier barrier = new DistributedDoubleBarrier(client, path, members);
    say("JOINING " + who + " " + System.nanoTime());
    if (!barrier.enter(60, TimeUnit.SECONDS)) {
      say("TIMEOUT");
      return;
    }
    say("ENTERED " + who + " " + System.nanoTime());
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    say("LEAVING " + who + " " + System.nanoTime());
    say(barrier.leave(60, TimeUnit.SECONDS) ? "LEFT " + who + " " + System.nanoTime() : "TIMEOUT");
  }
}
