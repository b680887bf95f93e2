// The ZooKeeper Java client against a server given as args[0], past what foreign/JavaClient.java covers: exists
// and data watches, a persistent-recursive watch (addWatch), removeWatches, getEphemerals, getAllChildrenNumber,
// sync and the async API, under the root args[1] (w when absent). Prints one line per step, with the root
// written as /w.
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

public class JavaWatches {
    public static void main(String[] args) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(args[0], 10000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) connected.countDown();
        });
        if (!connected.await(10, TimeUnit.SECONDS)) throw new IllegalStateException("not connected");
        String w = args.length > 1 ? args[1] : "/w";
        root = w;
        LinkedBlockingQueue<WatchedEvent> events = new LinkedBlockingQueue<>();
        System.out.println("exists " + zk.exists(w, events::add));
        zk.create(w, "0".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        System.out.println("event " + next(events));
        zk.getData(w, events::add, null);
        zk.setData(w, "1".getBytes(), -1);
        System.out.println("event " + next(events));
        LinkedBlockingQueue<WatchedEvent> recursive = new LinkedBlockingQueue<>();
        Watcher rw = recursive::add;
        zk.addWatch(w, rw, AddWatchMode.PERSISTENT_RECURSIVE);
        zk.create(w + "/a", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        zk.create(w + "/a/b", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
        zk.setData(w + "/a", "x".getBytes(), -1);
        zk.delete(w + "/a/b", -1);
        for (int i = 0; i < 4; i++) System.out.println("recursive " + next(recursive));
        zk.removeWatches(w, rw, Watcher.WatcherType.Any, false);
        System.out.println("removed " + next(recursive));
        zk.create(w + "/e", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
        System.out.println("ephemerals " + zk.getEphemerals(w).toString().replace(root, "/w"));
        System.out.println("allChildren " + zk.getAllChildrenNumber(w));
        CompletableFuture<Integer> synced = new CompletableFuture<>();
        zk.sync(w, (rc, path, ctx) -> synced.complete(rc), null);
        System.out.println("sync " + synced.get(10, TimeUnit.SECONDS));
        CompletableFuture<String> async = new CompletableFuture<>();
        zk.getData(w, false, (rc, path, ctx, data, stat) -> async.complete(rc + " " + new String(data) + " " + stat.getVersion()), null);
        System.out.println("async " + async.get(10, TimeUnit.SECONDS));
        System.out.println("recursive after remove " + recursive.poll(300, TimeUnit.MILLISECONDS));
        zk.close();
        System.out.println("closed");
    }

    private static String root = "/w";

    private static String next(LinkedBlockingQueue<WatchedEvent> q) throws InterruptedException {
        WatchedEvent e = q.poll(10, TimeUnit.SECONDS);
        return e == null ? "none" : e.getType() + " " + e.getPath().replace(root, "/w");
    }
}
