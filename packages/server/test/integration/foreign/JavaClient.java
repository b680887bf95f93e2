// The ZooKeeper Java client against a server given as args[0]: creates, an ephemeral sequential node, a
// child watch, setData with a version, a multi, getACL and a clean close. Prints one line per step.
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

public class JavaClient {
    public static void main(String[] args) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(args[0], 10000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) connected.countDown();
        });
        if (!connected.await(10, TimeUnit.SECONDS)) throw new IllegalStateException("not connected");
        System.out.println("connected " + (zk.getSessionTimeout() > 0));
        System.out.println("create " + zk.create("/java", "v0".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
        LinkedBlockingQueue<WatchedEvent> events = new LinkedBlockingQueue<>();
        System.out.println("children " + zk.getChildren("/java", events::add));
        String seq = zk.create("/java/e-", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
        System.out.println("sequential " + seq);
        WatchedEvent ev = events.poll(10, TimeUnit.SECONDS);
        System.out.println("event " + ev.getType() + " " + ev.getPath());
        Stat stat = zk.setData("/java", "v1".getBytes(), 0);
        System.out.println("setData version " + stat.getVersion());
        try {
            zk.setData("/java", "v2".getBytes(), 0);
        } catch (KeeperException.BadVersionException e) {
            System.out.println("badVersion " + e.code());
        }
        List<OpResult> results = zk.multi(List.of(Op.check("/java", 1), Op.create("/java/m", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT), Op.delete("/java/m", 0)));
        System.out.println("multi " + results.size());
        System.out.println("acl " + zk.getACL("/java", new Stat()).toString().replace("\n", ""));
        System.out.println("ephemeralOwner " + (zk.exists(seq, false).getEphemeralOwner() == zk.getSessionId()));
        zk.close();
        System.out.println("closed");
    }
}
