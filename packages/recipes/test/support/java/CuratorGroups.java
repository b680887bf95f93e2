// Curator side of the group interop tests: the real GroupMember (curator-recipes 5.4) on a path shared with
// zkts. Compiled by the test with javac against Debian's Curator and ZooKeeper jars (foreign.ts).
//
//   group <connect> <membershipPath> <thisId> <payload> <expectId>
//       a GroupMember with thisId and payload (UTF-8); polls getCurrentMembers() until expectId is among them,
//       prints "SAW <expectId> <its payload>" and "MEMBERS <id,id,...>" (sorted), then waits for a line on
//       stdin, closes the member and prints LEFT.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeSet;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.nodes.GroupMember;
import org.apache.curator.retry.ExponentialBackoffRetry;

public final class CuratorGroups {
  public static void main(String[] args) throws Exception {
    if (!args[0].equals("group")) throw new IllegalArgumentException("unknown mode " + args[0]);
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(args[1], 10_000, 5_000, new ExponentialBackoffRetry(100, 5))) {
      client.start();
      client.blockUntilConnected();
      GroupMember member = new GroupMember(client, args[2], args[3], args[4].getBytes(StandardCharsets.UTF_8));
      member.start();
      String expect = args[5];
      long deadline = System.currentTimeMillis() + 30_000;
      for (;;) {
        Map<String, byte[]> members = member.getCurrentMembers();
        if (members.containsKey(expect)) {
          System.out.println("SAW " + expect + " " + new String(members.get(expect), StandardCharsets.UTF_8));
          System.out.println("MEMBERS " + String.join(",", new TreeSet<>(members.keySet())));
          System.out.flush();
          break;
        }
        if (System.currentTimeMillis() > deadline) throw new IllegalStateException("never saw " + expect + " in " + members.keySet());
        Thread.sleep(20);
      }
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      member.close();
      System.out.println("LEFT");
      System.out.flush();
    }
  }
}
