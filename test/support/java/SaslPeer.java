// A Java ZooKeeper client for the SASL interop tests (test/support/java-peer.ts): it authenticates the way
// every Java client does, from the JAAS `Client` section named by -Djava.security.auth.login.config
// (DigestLoginModule or Krb5LoginModule), waits for SaslAuthenticated, then runs its arguments in order:
//   whoami                      prints WHOAMI <scheme> <user> per identity
//   create:<path>:<id>:<data>   a node whose only ACL is sasl:<id> with every permission; prints CREATED <path>
//   get:<path>                  prints GET <path> <data>, or GET <path> ERR <code>
// The state events it sees are printed as STATE <state>; it exits 0 after the last step, 2 on AuthFailed.
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.ClientInfo;
import org.apache.zookeeper.data.Id;

public class SaslPeer {
  public static void main(String[] args) throws Exception {
    CountDownLatch done = new CountDownLatch(1);
    AtomicReference<KeeperState> outcome = new AtomicReference<>();
    ZooKeeper zk = new ZooKeeper(args[0], 10000, event -> {
      if (event.getType() != EventType.None) return;
      System.out.println("STATE " + event.getState());
      System.out.flush();
      if (event.getState() == KeeperState.SaslAuthenticated || event.getState() == KeeperState.AuthFailed) {
        outcome.compareAndSet(null, event.getState());
        done.countDown();
      }
    });
    if (!done.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("no SASL outcome within 60 s");
    if (outcome.get() == KeeperState.AuthFailed) {
      zk.close();
      System.exit(2);
    }
    for (int i = 1; i < args.length; i++) {
      String[] step = args[i].split(":", 4);
      switch (step[0]) {
        case "whoami":
          for (ClientInfo info : zk.whoAmI()) System.out.println("WHOAMI " + info.getAuthScheme() + " " + info.getUser());
          break;
        case "create":
          ACL acl = new ACL(Perms.ALL, new Id("sasl", step[2]));
          zk.create(step[1], step[3].getBytes(StandardCharsets.UTF_8), Collections.singletonList(acl), CreateMode.PERSISTENT);
          System.out.println("CREATED " + step[1]);
          break;
        case "get":
          try {
            System.out.println("GET " + step[1] + " " + new String(zk.getData(step[1], false, null), StandardCharsets.UTF_8));
          } catch (KeeperException e) {
            System.out.println("GET " + step[1] + " ERR " + e.code());
          }
          break;
        default:
          throw new IllegalArgumentException("unknown step " + args[i]);
      }
      System.out.flush();
    }
    zk.close();
  }
}
