// Curator side of the interop tests: the real InterProcessMutex / InterProcessReadWriteLock contending with
// zkts on one path. Compiled by the test with javac against Debian's Curator and ZooKeeper jars.
//
//   mutex <connect> <lockPath> <iterations> <counterPath>
//       acquire, read counter, sleep 2 ms, write counter+1 (no version check), release; N times. Prints DONE.
//   hold-write|hold-read <connect> <lockPath>
//       acquire, print "HELD <node>", wait for a line on stdin, release, print RELEASED.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.retry.ExponentialBackoffRetry;

public final class CuratorLocks {
  public static void main(String[] args) throws Exception {
    String mode = args[0];
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(args[1], 10_000, 5_000, new ExponentialBackoffRetry(100, 5))) {
      client.start();
      client.blockUntilConnected();
      if (mode.equals("mutex")) {
        mutex(client, args[2], Integer.parseInt(args[3]), args[4]);
      } else {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, args[2]);
        InterProcessMutex lock = mode.equals("hold-write") ? rw.writeLock() : rw.readLock();
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
}
