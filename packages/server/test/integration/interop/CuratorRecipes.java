// Curator recipes against the server under test, in their own JVM. Compiled by curator.test.ts against Debian's
// Curator jars.
//
//   latch <connect> <path> <id>
//       a LeaderLatch: prints "LEADER <id>" once it leads, then waits for a line on stdin, closes, prints CLOSED.
//   cache <connect> <path>
//       a CuratorCache on <path>: prints "INITIALIZED", then "CREATED|CHANGED|DELETED <path> <data>" per event,
//       until stdin closes.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.retry.ExponentialBackoffRetry;

public final class CuratorRecipes {
  public static void main(String[] args) throws Exception {
    BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(args[1], 10_000, 5_000, new ExponentialBackoffRetry(100, 5))) {
      client.start();
      client.blockUntilConnected();
      if (args[0].equals("latch")) {
        LeaderLatch latch = new LeaderLatch(client, args[2], args[3]);
        latch.start();
        latch.await();
        say("LEADER " + args[3]);
        stdin.readLine();
        latch.close();
        say("CLOSED " + args[3]);
      } else {
        try (CuratorCache cache = CuratorCache.build(client, args[2])) {
          cache.listenable().addListener(CuratorCacheListener.builder()
              .forCreates(n -> say("CREATED " + describe(n)))
              .forChanges((before, after) -> say("CHANGED " + describe(after)))
              .forDeletes(n -> say("DELETED " + describe(n)))
              .forInitialized(() -> say("INITIALIZED"))
              .build());
          cache.start();
          while (stdin.readLine() != null) {
            // until stdin closes
          }
        }
      }
    }
  }

  private static String describe(ChildData n) {
    byte[] data = n.getData();
    return n.getPath() + " " + (data == null ? "null" : new String(data, StandardCharsets.UTF_8));
  }

  private static synchronized void say(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
